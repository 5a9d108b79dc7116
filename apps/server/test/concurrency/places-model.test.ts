import type { ScanTicketResponse } from '@parley/domain/tickets';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner } from '../../src/db/scope';
import { booked } from '../booking/booking-helpers';
import { addPerson, expectStatus } from '../directory/directory-helpers';
import { type EventSchool, eventSchool } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { connectElsewhere } from '../test-db';
import {
  buildWorld,
  checkInvariants,
  describeFindings,
  Ledger,
  type Mix,
  type Played,
  playScript,
  scriptArb,
  type Tally,
} from './places-model-support';

// A model of places on real PostgreSQL: fast-check draws runs of steps — book (siblings together into one
// slot too), cancel, move, change guests, an admin's removal or move, a scan and its undo at the door — by a
// parent, the other parent of the same children, a child signed in, and the admin, on a parent-teacher
// evening (slots of one place), a booking event (slots of 1, 2 and 3 places) and a ticketed event (places
// are people: 1 + guests). A run's steps go out in batches fired together through the real app (app.inject,
// Promise.all: side by side on the pool); after each batch five invariants are read back by SQL and the
// door's API (places-model-support.ts):
//   I1 families per slot ≤ capacity and = booked_count;  I2 people per ticketed slot, the same;
//   I3 valid tickets = 1 + guests of each live booking, none of a cancelled one;
//   I4 the live bookings are the ledger's (what the 200s created, less what they ended), none ended twice;
//   I5 the door's admitted count = admits − undos recorded at the door.
// Every answer is 200, 409 (a lost race, a broken rule) or 404 (a booking already gone); never 5xx.
// Environment: PLACES_MODEL_MIX narrows the steps to show one hole at a time (below); PLACES_MODEL_SEED with
// PLACES_MODEL_PATH and PLACES_MODEL_RUNS=1 replays a run (the failure prints them; a race may not repeat);
// PLACES_MODEL_RUNS sets how many; PLACES_MODEL_SHRINK=1 shrinks a failure (slow: a fresh world per try);
// PLACES_MODEL_SURVEY=1 plays every run to its end and counts what broke (how many runs a mix needs).

const FAMILY = { parent: 1, student: 1 };
const MIXES: Record<string, Mix> = {
  // CI: everything at once, 120 runs of 10 batches (~40 s). Surveyed on the code before the fix (300 runs),
  // each of the five holes broke 7–23 % of runs: 120 runs miss none of them once in a thousand.
  full: {
    name: 'full',
    kinds: { book: 3, cancel: 3, move: 4, scan: 1, undo: 1 },
    events: ['pt', 'general', 'ticketed'],
    actors: { parent: 2, coParent: 1, student: 2, admin: 1 },
    who: ['A', 'B', 'AB'],
    batch: [3, 4],
    batches: 10,
  },
  // Hole 1, no race needed: siblings share a slot, one of them cancels their own booking.
  'sibling-cancel': {
    name: 'sibling-cancel',
    kinds: { book: 2, cancel: 2 },
    events: ['pt', 'general'],
    actors: FAMILY,
    who: ['AB'],
    batch: [1, 1],
    batches: 8,
  },
  // Hole 2: a parent and the child cancel one booking at once (one child booked: no shared slot, no hole 1).
  'double-cancel': {
    name: 'double-cancel',
    kinds: { book: 1, cancel: 3 },
    events: ['pt', 'general'],
    actors: FAMILY,
    who: ['A'],
    batch: [2, 3],
    batches: 8,
  },
  // Hole 3: a parent and the child move one booking at once.
  'double-move': {
    name: 'double-move',
    kinds: { book: 1, move: 3 },
    events: ['pt'],
    actors: FAMILY,
    who: ['A'],
    batch: [2, 3],
    batches: 8,
  },
  // Hole 4: a parent and the child cancel one ticketed booking at once.
  'ticket-cancel': {
    name: 'ticket-cancel',
    kinds: { book: 1, cancel: 3 },
    events: ['ticketed'],
    actors: FAMILY,
    who: ['A'],
    batch: [2, 3],
    batches: 8,
  },
  // Hole 5, no race needed: the door admits, then the family changes its guests.
  'guests-after-door': {
    name: 'guests-after-door',
    kinds: { book: 1, move: 2, scan: 2 },
    events: ['ticketed'],
    actors: { parent: 1 },
    who: ['A', 'B'],
    batch: [1, 1],
    batches: 8,
  },
};

const env = process.env;
const MIX = MIXES[env.PLACES_MODEL_MIX ?? 'full'] as Mix;
if (!MIX) throw new Error(`PLACES_MODEL_MIX: one of ${Object.keys(MIXES).join(', ')}`);
const RUNS = Number(env.PLACES_MODEL_RUNS ?? 120);
const SEED = env.PLACES_MODEL_SEED ? Number(env.PLACES_MODEL_SEED) : Math.floor(Math.random() * 2 ** 31);
const PATH = env.PLACES_MODEL_PATH;
const SHRINK = env.PLACES_MODEL_SHRINK === '1';
const SURVEY = env.PLACES_MODEL_SURVEY === '1';

let t: TestApp;
let school: EventSchool;
let teacherIds: number[];

describe.runIf(process.env.TEST_DB === 'pg')('a model of places on PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp();
    school = await eventSchool(t, 'Model Academy');
    teacherIds = [];
    for (let i = 0; i < 3; i++)
      teacherIds.push((await addPerson(t, school.admin.token, 'teacher', { sendInvite: false })).id);
  });
  afterAll(() => t?.close());

  /** Runs the property: fast-check's summary, the first broken run (if any) and the time taken. */
  async function runModel(mix: Mix, runs: number, seed: number, label = '') {
    const tally: Tally = { batches: 0, requests: 0, statuses: new Map() };
    let run = 0;
    let failed: Played | undefined;
    // A survey plays every run to its end, keeps each run's first broken batch and counts their shapes.
    const survey = new Map<string, number[]>();
    const unnamed: Played[] = [];
    const property = fc.asyncProperty(scriptArb(mix), async (script) => {
      run += 1;
      const world = await buildWorld(t, school, teacherIds, run);
      const played = await playScript(t, world, mix, script, tally, { playOn: SURVEY });
      if (!played.problem) return;
      if (SURVEY) {
        survey.set(played.shape ?? '', [...(survey.get(played.shape ?? '') ?? []), run]);
        if (!played.shape?.includes(':')) unnamed.push(played);
        return;
      }
      failed = played;
      throw new Error(played.problem);
    });
    const started = performance.now();
    const details = await fc.check(property, {
      seed,
      numRuns: runs,
      endOnFailure: !SHRINK,
      ...(PATH !== undefined && { path: PATH }),
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const statuses = [...tally.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    const replay = `PLACES_MODEL_MIX=${mix.name} PLACES_MODEL_SEED=${details.seed}${details.failed ? ` PLACES_MODEL_PATH=${details.counterexamplePath} PLACES_MODEL_RUNS=1` : ''}`;
    console.log(
      `places-model [${mix.name}]${label}: ${details.failed ? `FAILED in run ${details.numRuns} of ${runs}, batch ${failed?.batch}: ${failed?.shape}` : `${details.numRuns} runs`}, ` +
        `seed ${details.seed}, ${seconds} s, ${tally.batches} batches, ${tally.requests} requests (${statuses.join(' ')}); replay: ${replay}`,
    );
    if (SURVEY) {
      const lines = [...survey].map(
        ([shape, runs]) => `  ${runs.length}/${run} runs: ${shape} (runs ${runs.join(' ')})`,
      );
      // Shapes without a name are shown whole: something the survey does not know yet.
      const shown = unnamed.map((played) => `${played.problem}\n${played.log.join('\n')}`);
      console.log(
        `places-model survey [${mix.name}], ${run} runs:\n${lines.join('\n') || '  nothing broke'}\n${shown.join('\n\n')}`,
      );
      expect([...survey.keys()]).toEqual([]);
    }
    return { details, failed, seconds, replay };
  }

  it(`random interleavings (${MIX.name} mix) keep the five invariants and never answer 5xx`, async () => {
    const { details, failed, seconds, replay } = await runModel(MIX, RUNS, SEED);
    if (details.failed) {
      const why = failed?.problem ?? String(details.errorInstance);
      expect.fail(
        `invariant broken in run ${details.numRuns}, batch ${failed?.batch} (seed ${details.seed}, path ${details.counterexamplePath}, ${seconds} s)\n` +
          `${why}\nshape: ${failed?.shape}\nthe run, in order:\n${failed?.log.join('\n') ?? ''}\nreplay: ${replay}`,
      );
    }
  }, 600_000);

  // The rule the property stands on (migration 023: the database counts the places) switched off: the same
  // runs break an invariant at once, as the application no longer counts places itself.
  it.skipIf(SURVEY)(
    'negative control: with the database’s count of places off, the model finds drift',
    async () => {
      const triggers = ['bookings_places_added', 'bookings_places_changed', 'bookings_places_removed'];
      const toggle = (on: boolean) =>
        asOwner(async () => {
          for (const trigger of triggers)
            await sql`ALTER TABLE bookings ${sql.raw(on ? 'ENABLE' : 'DISABLE')} TRIGGER ${sql.id(trigger)}`.execute(
              t.db,
            );
        });
      await toggle(false);
      try {
        const { details, failed } = await runModel(
          MIXES['sibling-cancel'] as Mix,
          20,
          SEED,
          ' (negative control: must fail)',
        );
        expect(details.failed).toBe(true);
        expect(failed?.problem).toMatch(/^I1 /m);
      } finally {
        await toggle(true);
      }
    },
    120_000,
  );

  it('negative control: violations planted by SQL with triggers off are each reported by the same checks', async () => {
    const world = await buildWorld(t, school, teacherIds, 0);
    const ledger = new Ledger();
    const [home, other] = world.households;
    if (!home || !other) throw new Error('two households expected');
    const [child, sibling] = home.children;
    const [pt, general, ticketed] = [world.events.pt, world.events.general, world.events.ticketed];
    const ptSlot = pt.slotIds[0] ?? 0;
    const generalSlot = general.slotIds[1] ?? 0; // two places
    const ticketSlot = ticketed.slotIds[0] ?? 0;
    const made = async (eventId: number, token: string, items: Parameters<typeof booked>[2]) => {
      const { created } = await booked({ http: world.http, eventId }, token, items);
      ledger.success({ label: `booked ${created.join(', ')}`, consumes: [] }, created);
      return created[0] ?? 0;
    };
    const full = await made(pt.eventId, home.parent.token, [
      { slotId: ptSlot, studentId: child.id },
      { slotId: ptSlot, studentId: sibling.id },
    ]);
    const open = await made(general.eventId, home.parent.token, [
      { slotId: generalSlot, studentId: child.id },
    ]);
    const concert = await made(ticketed.eventId, other.parent.token, [
      { slotId: ticketSlot, studentId: other.children[0].id, guests: 1 },
    ]);
    const codes = await t.db
      .selectFrom('tickets')
      .select(['code', 'guest_index'])
      .where('booking_id', '=', concert)
      .orderBy('guest_index')
      .execute();
    const scan = expectStatus<ScanTicketResponse>(
      await world.http.post('tickets/scan-ticket', world.admin.token, {
        ticketId: codes[1]?.code,
        eventId: ticketed.eventId,
      }),
      200,
    );
    expect(scan.data.success).toBe(true);
    // Sound before the plant: the checks find nothing.
    expect(describeFindings(await checkInvariants(t, world, ledger))).toBe('');

    // The plant, as the owner on a connection of its own, with triggers (and any added later) off.
    const client = await connectElsewhere(t.db);
    if (!client) throw new Error('PostgreSQL only');
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      // I1 (and I4): another family's live row in the full one-place slot; booked_count left at 1.
      const intruder = await client.query<{ id: number }>(
        `insert into bookings (school_id, event_id, slot_id, teacher_id, starts_at, ends_at, parent_id, student_id, booked_by)
         select school_id, event_id, slot_id, teacher_id, starts_at, ends_at, $2, $3, $2 from bookings where id = $1
         returning id`,
        [full, other.parent.id, other.children[1].id],
      );
      // I1 (and I4): a booking cancelled behind the app's back: its slot still counts it.
      await client.query(`update bookings set status = 'cancelled', cancelled_at = now() where id = $1`, [
        open,
      ]);
      // I2: the ticketed slot counts a person fewer than it holds.
      await client.query('update slots set booked_count = booked_count - 1 where id = $1', [ticketSlot]);
      // I3: the attendee's ticket voided while the booking lives.
      await client.query(
        `update tickets set status = 'void', voided_at = now() where booking_id = $1 and guest_index = 0`,
        [concert],
      );
      // I5: the admitted guest's scan wiped without an undo.
      await client.query(
        `update tickets set scanned_at = null, scanned_by = null, scanned_device = null
         where booking_id = $1 and guest_index = 1`,
        [concert],
      );
      await client.query('commit');
      const found = await checkInvariants(t, world, ledger);
      const report = describeFindings(found);
      console.log(`places-model negative control found:\n${report}`);
      expect([...found.keys()].sort()).toEqual([1, 2, 3, 4, 5]);
      expect(found.get(1)).toEqual(
        expect.arrayContaining([
          `slot ${ptSlot} over capacity: 2 families (booked_count 1) in 1 places`,
          `slot ${ptSlot}: booked_count 1, but its live bookings take 2`,
          `slot ${generalSlot}: booked_count 1, but its live bookings take 0`,
        ]),
      );
      expect(found.get(2)).toEqual([`slot ${ticketSlot}: booked_count 1, but its live bookings take 2`]);
      expect(found.get(3)).toEqual([
        `#${concert} (booked, 1 guests) holds 1 valid tickets, 0 of them the attendee's`,
      ]);
      expect(found.get(4)).toEqual([
        `live in the database, not in the ledger: #${intruder.rows[0]?.id}`,
        `live in the ledger, not in the database: #${open}`,
      ]);
      expect(found.get(5)).toEqual(['the door says 0 admitted; the scans say 1 admits − 0 undos = 1']);
    } finally {
      await client.end();
    }
  }, 60_000);
});
