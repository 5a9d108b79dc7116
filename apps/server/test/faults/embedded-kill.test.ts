import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/config';
import { type Db, openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { Background } from '../../src/lib/background';
import { MemoryStore } from '../../src/lib/rate-limiter';
import {
  type Family,
  findIntegrityViolations,
  NO_VIOLATIONS,
  seedFamilies,
} from '../concurrency/race-support';
import { api, expectStatus } from '../directory/directory-helpers';
import { createEvent, createSection, daysAhead } from '../events/events-helpers';
import { exited, type ServerProcess, startServer } from '../server-process';
import { TEST_APP_URL, type TestApp } from '../test-app';
import {
  type Attempt,
  bookOnePlace,
  type Evening,
  httpPoster,
  inParallel,
  type Poster,
  parentsEvening,
} from './fault-support';

// The embedded database (PGlite in DATA_DIR, the default deployment) killed with SIGKILL while families
// book: the real server process (main.ts) is killed mid-rush, started again on the same DATA_DIR, and the
// data is read back. Every booking answered 200 is there; every booking there is whole: its places counted
// in its slot, its tickets (a ticketed event), its confirmation mail; nothing without its booking. Three
// rounds, killed early, midway and late in the rush. In the api-soak project, whichever database that has:
// the server's own is a PGlite in a DATA_DIR of its own, so it runs with or without PostgreSQL.

const ROUNDS = [
  { families: 50, killAfterAcks: 6 },
  { families: 50, killAfterAcks: 35 },
  { families: 50, killAfterAcks: 70 },
];
const CLIENTS = 12;

type RoundFigures = {
  round: number;
  requests: number;
  acknowledged: number;
  inFlightAtKill: number;
  killAfterMs: number;
  restartReadyMs: number;
  committedUnanswered: number;
};

describe('the embedded database killed with SIGKILL during bookings', () => {
  let dataDir: string;
  let evening: Evening;
  let concertId: number;
  let concertSlot: number;
  let families: Family[];
  const names = new Map<number, string>();
  const attempts: Attempt[] = [];
  let server: ServerProcess | undefined;

  /** The real app on the data dir, in this process (to set the school up, and to read it back). */
  async function openApp(): Promise<TestApp & { db: Db }> {
    const db = openDatabase({ dataDir });
    await migrateToLatest(db);
    const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', APP_URL: TEST_APP_URL });
    const background = new Background({ error: () => {}, warn: () => {} });
    const app = await buildApp({
      db,
      config,
      logger: false,
      rateLimitStore: new MemoryStore(),
      background,
    });
    return {
      app,
      db,
      config,
      settled: () => background.idle(),
      afterAnswers: {
        hold: () => {
          throw new Error('not held here');
        },
        release: () => {},
        handedOver: () => [],
      },
      async close() {
        await app.close();
        await db.destroy();
      },
    };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-kill-'));
    const t = await openApp();
    try {
      evening = await parentsEvening(t, 'Kill Academy', 8);
      const http = api(t.app);
      concertId = await createEvent(http, evening.adminToken, 'Kill Academy concert', evening.types.ticketed);
      expectStatus(
        await http.post(`events/update?id=${concertId}`, evening.adminToken, {
          usersPerSlot: 1000,
          guestAllowance: 2,
        }),
        200,
      );
      await createSection(http, evening.adminToken, concertId, {
        date: daysAhead(14),
        start: '18:30',
        end: '20:30',
      });
      const slot = await t.db
        .selectFrom('slots')
        .select('id')
        .where('event_id', '=', concertId)
        .executeTakeFirstOrThrow();
      concertSlot = slot.id;
      for (const event of await t.db.selectFrom('events').select(['id', 'name']).execute())
        names.set(event.id, event.name);
      families = await seedFamilies(
        t.db,
        evening.schoolId,
        ROUNDS.reduce((n, r) => n + r.families + 1, 0),
      );
    } finally {
      await t.close();
    }
  }, 180_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Everything the data must hold after a kill; each list empty when it does. */
  async function readBack(db: Db) {
    const acked = attempts.filter((a) => a.status === 200).flatMap((a) => a.created);
    const sentKeys = new Set(attempts.map((a) => a.key));
    const events = [evening.eventId, concertId];
    const bookings = await db
      .selectFrom('bookings')
      .select(['id', 'event_id', 'status', 'guests', 'idempotency_key', 'parent_id'])
      .where('event_id', 'in', events)
      .execute();
    const live = new Map(bookings.filter((b) => b.status === 'booked').map((b) => [b.id, b]));
    const integrity = await findIntegrityViolations(db, events);
    // A ticketed booking holds one valid ticket per head (the attendee and each guest), numbered 0..guests.
    const ticketGaps = await sql<{ id: number; guests: number; tickets: number }>`
      select b.id, b.guests, count(t.id)::int as tickets from bookings b
      left join tickets t on t.booking_id = b.id and t.status = 'valid'
      where b.event_id = ${concertId} and b.status = 'booked'
      group by b.id, b.guests
      having count(t.id) <> 1 + b.guests or count(distinct t.guest_index) <> 1 + b.guests
        or max(t.guest_index) <> b.guests`.execute(db);
    const orphanTickets = await sql<{ id: number }>`
      select t.id from tickets t left join bookings b on b.id = t.booking_id
      where t.status = 'valid' and (b.id is null or b.status <> 'booked' or b.event_id <> ${concertId})`.execute(
      db,
    );
    // One confirmation mail per booking change, written in its transaction: per parent and event, as many
    // "booked" mails as changes (idempotency keys) that committed.
    const changes = await sql<{ email: string; event_id: number; changes: number }>`
      select u.email, b.event_id, count(distinct b.idempotency_key)::int as changes
      from bookings b join users u on u.id = b.parent_id
      where b.event_id in (${sql.join(events)})
      group by u.email, b.event_id`.execute(db);
    const mails = await db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject'])
      .where('subject', 'like', '%: booking confirmed')
      .execute();
    const expectedMails = new Map(
      changes.rows.map((row) => [`${row.email} ${names.get(row.event_id)}: booking confirmed`, row.changes]),
    );
    const foundMails = new Map<string, number>();
    for (const mail of mails) {
      const key = `${mail.to_address} ${mail.subject}`;
      foundMails.set(key, (foundMails.get(key) ?? 0) + 1);
    }
    return {
      acked: acked.length,
      found: live.size,
      missingAcknowledged: acked.filter((id) => !live.has(id)),
      phantoms: bookings
        .filter((b) => !b.idempotency_key || !sentKeys.has(b.idempotency_key))
        .map((b) => b.id),
      notLive: bookings.filter((b) => b.status !== 'booked').map((b) => b.id),
      committedUnanswered: [...live.keys()].filter((id) => !acked.includes(id)).length,
      integrity,
      ticketGaps: ticketGaps.rows,
      orphanTickets: orphanTickets.rows,
      validTickets: await db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_id', '=', concertId)
        .where('status', '=', 'valid')
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n)),
      confirmationMails: mails.length,
      mailMismatches: [...new Set([...expectedMails.keys(), ...foundMails.keys()])]
        .filter((key) => expectedMails.get(key) !== foundMails.get(key))
        .map((key) => ({ key, changes: expectedMails.get(key) ?? 0, mails: foundMails.get(key) ?? 0 })),
    };
  }

  it('reopens after each of three kills with every acknowledged booking and no half of one', async () => {
    const figures: RoundFigures[] = [];
    let next = 0;
    let unansweredSoFar = 0;
    for (const [round, plan] of ROUNDS.entries()) {
      server = await startServer({ DATA_DIR: dataDir });
      const child = server.child;
      const base = httpPoster(server.url);
      const started = Date.now();
      let acks = 0;
      let inFlight = 0;
      let killed: { afterMs: number; inFlight: number } | undefined;
      // Every answer is counted; at the round's count of 200s the process is killed, requests in flight.
      const post: Poster = async (path, token, payload) => {
        inFlight += 1;
        const answer = await base(path, token, payload).finally(() => {
          inFlight -= 1;
        });
        if (answer.status === 200) acks += 1;
        if (!killed && acks >= plan.killAfterAcks) {
          killed = { afterMs: Date.now() - started, inFlight };
          child.kill('SIGKILL');
        }
        return answer;
      };
      const before = attempts.length;
      await inParallel(families.slice(next, next + plan.families), CLIENTS, async (family) => {
        const concert = await bookOnePlace(post, concertId, family, [concertSlot], {
          guests: family.parentId % 3,
          log: attempts,
        });
        if (concert?.status === 0) return; // the server is gone
        await bookOnePlace(post, evening.eventId, family, evening.slotIds, { log: attempts });
      });
      next += plan.families;
      expect(killed, 'the server was killed during the rush').toBeDefined();
      expect(await exited(child)).toBeNull(); // killed by the signal, not exited

      // Started again on the same DATA_DIR: it opens, answers, and takes a booking.
      const restartAt = Date.now();
      server = await startServer({ DATA_DIR: dataDir });
      const restartReadyMs = Date.now() - restartAt;
      const reserve = families[next] as Family;
      next += 1;
      const after = await bookOnePlace(httpPoster(server.url), evening.eventId, reserve, evening.slotIds, {
        log: attempts,
      });
      expect(after?.status).toBe(200);
      expect(await server.stop()).toBe(0);

      const db = openDatabase({ dataDir });
      try {
        const found = await readBack(db);
        const roundAttempts = attempts.slice(before);
        figures.push({
          round: round + 1,
          requests: roundAttempts.length,
          acknowledged: roundAttempts.filter((a) => a.status === 200).length,
          inFlightAtKill: killed?.inFlight ?? 0,
          killAfterMs: killed?.afterMs ?? 0,
          restartReadyMs,
          committedUnanswered: found.committedUnanswered - unansweredSoFar,
        });
        unansweredSoFar = found.committedUnanswered;
        expect(found.missingAcknowledged).toEqual([]);
        expect(found.phantoms).toEqual([]);
        expect(found.notLive).toEqual([]);
        expect(found.integrity).toEqual(NO_VIOLATIONS);
        expect(found.ticketGaps).toEqual([]);
        expect(found.orphanTickets).toEqual([]);
        expect(found.mailMismatches).toEqual([]);
        if (round === ROUNDS.length - 1) {
          console.info(
            `SIGKILL of the embedded database during bookings: ${JSON.stringify({
              rounds: figures,
              bookingsAcknowledged: found.acked,
              bookingsFoundAfterRestarts: found.found,
              committedButUnanswered: found.committedUnanswered,
              validTickets: found.validTickets,
              confirmationMails: found.confirmationMails,
            })}`,
          );
        }
      } finally {
        await db.destroy();
      }
    }
  }, 480_000);
});
