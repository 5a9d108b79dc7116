import { randomUUID } from 'node:crypto';
import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingConflict,
  type BookingResult,
} from '@parley/domain/booking';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import { addPerson, api, expectStatus } from '../directory/directory-helpers';
import {
  createEvent,
  createSection,
  daysAhead,
  type EventSchool,
  eventSchool,
} from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { createTestDb, type TestDb } from '../test-db';
import {
  doubleBookings,
  type Family,
  findIntegrityViolations,
  NO_VIOLATIONS,
  seedFamilies,
} from './race-support';

// The booking rush on real PostgreSQL (PGlite is one connection: it proves constraints, never races).
// Every request goes through the real app (app.inject on one Fastify instance; the pg pool gives up to 20
// parallel transactions), fired together with Promise.all. After each race one SQL check
// (findIntegrityViolations) looks for double bookings in the rows themselves; the negative control shows
// that the same check finds them when the constraints are gone and the booking is a check-then-insert.

type Answer = { status: number; body: Record<string, unknown> };

let t: TestApp;
let school: EventSchool;

/** Lost races answer 409 with one of these and the fresh grid. */
const RACE_MESSAGES: string[] = [BOOKING_TEXT.slotTaken, BOOKING_TEXT.sameTeacher, BOOKING_TEXT.overlap];

async function post(token: string, url: string, payload: unknown): Promise<Answer> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${url}`,
    headers: { authorization: `Bearer ${token}` },
    payload: payload as Record<string, unknown>,
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

function book(eventId: number, family: Family, slotId: number, idempotencyKey: string = randomUUID()) {
  return post(family.token, `events/update-slot-for-booking?id=${eventId}`, {
    items: [{ slotId, studentId: family.studentId }],
    idempotencyKey,
  });
}

type Slot = { id: number; teacherId: number; startsAt: Date };
type Evening = { eventId: number; teacherIds: number[]; slots: Slot[]; byTeacher: Map<number, Slot[]> };

/** An enabled parent-teacher evening a week ahead: `teachers` × `perTeacher` 10-minute slots of one place. */
async function ptEvening(name: string, teachers: number, perTeacher: number): Promise<Evening> {
  const http = api(t.app);
  const token = school.admin.token;
  const teacherIds: number[] = [];
  for (let i = 0; i < teachers; i++) {
    teacherIds.push((await addPerson(t, token, 'teacher', { sendInvite: false })).id);
  }
  const eventId = await createEvent(http, token, name, school.types.parentTeacher);
  const minutes = 16 * 60 + perTeacher * 10;
  const end = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  await createSection(http, token, eventId, {
    date: daysAhead(7),
    start: '16:00',
    end,
    teachers: teacherIds.map((teacherId) => ({ teacherId })),
  });
  const rows = await t.db
    .selectFrom('slots')
    .select(['id', 'teacher_id', 'starts_at', 'capacity'])
    .where('event_id', '=', eventId)
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  expect(rows).toHaveLength(teachers * perTeacher);
  expect(rows.every((row) => row.capacity === 1)).toBe(true);
  const slots = rows.map((row) => ({ id: row.id, teacherId: row.teacher_id ?? 0, startsAt: row.starts_at }));
  const byTeacher = new Map(teacherIds.map((id) => [id, slots.filter((slot) => slot.teacherId === id)]));
  return { eventId, teacherIds, slots, byTeacher };
}

async function liveBookings(db: Db, eventId: number) {
  return db
    .selectFrom('bookings')
    .select(['id', 'slot_id', 'parent_id', 'student_id'])
    .where('event_id', '=', eventId)
    .where('status', '=', 'booked')
    .execute();
}

/** A lost race: 409, one of the race messages, and a grid to choose again from. Returns the grid's free slots. */
function expectLostRace(answer: Answer): number[] {
  expect(answer.status).toBe(409);
  const body = answer.body as BookingConflict;
  expect(RACE_MESSAGES).toContain(body.message);
  expect(Array.isArray(body.grid)).toBe(true);
  return (body.grid ?? []).flatMap((group) =>
    group.slots.filter((slot) => slot.free > 0).map((slot) => slot.id),
  );
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;

describe.runIf(process.env.TEST_DB === 'pg')('booking races on PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp();
    school = await eventSchool(t, 'Rush Academy');
  });
  afterAll(() => t?.close());

  it('200 parents racing for 20 slots: exactly 20 bookings, counts exact, every loser 409 with the grid', async () => {
    const e = await ptEvening('Rush evening', 4, 5);
    const families = await seedFamilies(t.db, school.schoolId, 200);
    const hot = e.slots.slice(0, 3).map((slot) => slot.id);
    const statuses = new Map<number, number>();
    const messages = new Map<string, number>();
    const wins = new Map<number, number>();
    const count = (answer: Answer, family: Family) => {
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) {
        expect((answer.body as BookingResult).created).toHaveLength(1);
        wins.set(family.parentId, (wins.get(family.parentId) ?? 0) + 1);
      } else {
        const message = String(answer.body.message);
        messages.set(message, (messages.get(message) ?? 0) + 1);
      }
    };

    // Wave 1, all at once: most parents want one of the same few slots; every fifth fires two requests
    // together, either two slots of one teacher or two teachers at the same time.
    const firstChoice = new Map<number, number[]>();
    const wave1 = await Promise.all(
      families.map(async (family, i) => {
        const want = Math.random() < 0.85 ? pick(hot) : pick(e.slots).id;
        const requests = [want];
        const slot = e.slots.find((s) => s.id === want) as Slot;
        if (i % 10 === 0) {
          const sameTime = e.slots.filter(
            (s) => s.teacherId !== slot.teacherId && +s.startsAt === +slot.startsAt,
          );
          requests.push(pick(sameTime).id);
        } else if (i % 10 === 5) {
          requests.push(pick((e.byTeacher.get(slot.teacherId) ?? []).filter((s) => s.id !== want)).id);
        }
        const answers = await Promise.all(requests.map((slotId) => book(e.eventId, family, slotId)));
        for (const answer of answers) count(answer, family);
        firstChoice.set(
          family.parentId,
          answers.flatMap((a) => (a.status === 409 ? expectLostRace(a) : [])),
        );
        return answers;
      }),
    );
    expect(wave1.flat()).toHaveLength(240);

    // Then every parent still without an appointment tries again at once, a free slot from the grid
    // their 409 brought (else any slot), until the evening is full.
    let waves = 1;
    let grids = firstChoice;
    for (; waves < 25; waves++) {
      const free = await t.db
        .selectFrom('slots')
        .select('id')
        .where('event_id', '=', e.eventId)
        .whereRef('booked_count', '<', 'capacity')
        .execute();
      if (free.length === 0) break;
      const waiting = families.filter((family) => !wins.has(family.parentId));
      const next = new Map<number, number[]>();
      await Promise.all(
        waiting.map(async (family) => {
          const seen = grids.get(family.parentId) ?? [];
          const answer = await book(e.eventId, family, seen.length > 0 ? pick(seen) : pick(e.slots).id);
          count(answer, family);
          next.set(family.parentId, answer.status === 409 ? expectLostRace(answer) : []);
        }),
      );
      grids = next;
    }

    const summary = { waves, statuses: Object.fromEntries(statuses), messages: Object.fromEntries(messages) };
    console.info(`200 parents for 20 slots: ${JSON.stringify(summary)}`);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect([...statuses.keys()].sort()).toEqual([200, 409]);
    expect(statuses.get(200)).toBe(20);
    expect(messages.get(BOOKING_TEXT.slotTaken)).toBeGreaterThan(0);
    const live = await liveBookings(t.db, e.eventId);
    expect(live).toHaveLength(20);
    expect(new Set(live.map((row) => row.slot_id)).size).toBe(20);
    const slots = await t.db
      .selectFrom('slots')
      .select('booked_count')
      .where('event_id', '=', e.eventId)
      .execute();
    expect(slots.map((slot) => slot.booked_count)).toEqual(Array(20).fill(1));
    expect(await findIntegrityViolations(t.db, [e.eventId])).toEqual(NO_VIOLATIONS);
  });

  it('one parent booking two slots of the same teacher at once gets one; the other is 409 sameTeacher', async () => {
    const e = await ptEvening('Same teacher', 1, 24);
    const families = await seedFamilies(t.db, school.schoolId, 12);
    const slots = e.slots.map((slot) => slot.id);
    // Twelve parents at once, each firing two requests together for their own two slots (no one else's).
    const answers = await Promise.all(
      families.map((family, i) =>
        Promise.all([
          book(e.eventId, family, slots[2 * i] ?? 0),
          book(e.eventId, family, slots[2 * i + 1] ?? 0),
        ]),
      ),
    );
    for (const pair of answers) {
      expect(pair.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const lost = pair.find((answer) => answer.status === 409) as Answer;
      // The family's own requests take turns (their user row is locked); the second finds the first
      // booking and the database's one-slot-per-teacher rule refuses it.
      expect(lost.body.message).toBe(BOOKING_TEXT.sameTeacher);
      expect(Array.isArray(lost.body.grid)).toBe(true);
    }
    const live = await liveBookings(t.db, e.eventId);
    expect(live).toHaveLength(12);
    expect(new Set(live.map((row) => row.parent_id)).size).toBe(12);
    expect(await findIntegrityViolations(t.db, [e.eventId])).toEqual(NO_VIOLATIONS);
  });

  it('families booking the same two slots in opposite orders never deadlock: one gets both, the other 409', async () => {
    const e = await ptEvening('Crossing', 2, 12);
    const families = await seedFamilies(t.db, school.schoolId, 24);
    const [a, b] = e.teacherIds.map((id) => e.byTeacher.get(id) ?? []);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, round) => {
        // Teacher A at one time, teacher B ten minutes later: a pair one family can hold.
        const x = a?.[round]?.id ?? 0;
        const y = b?.[(round + 1) % 12]?.id ?? 0;
        const [one, two] = [families[2 * round] as Family, families[2 * round + 1] as Family];
        const items = (family: Family, ids: number[]) =>
          post(family.token, `events/update-slot-for-booking?id=${e.eventId}`, {
            items: ids.map((slotId) => ({ slotId, studentId: family.studentId })),
            idempotencyKey: randomUUID(),
          });
        return Promise.all([items(one, [x, y]), items(two, [y, x])]);
      }),
    );
    for (const pair of answers) {
      expect(pair.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect((pair.find((answer) => answer.status === 409) as Answer).body.message).toBe(
        BOOKING_TEXT.slotTaken,
      );
    }
    expect(await liveBookings(t.db, e.eventId)).toHaveLength(24);
    expect(await findIntegrityViolations(t.db, [e.eventId])).toEqual(NO_VIOLATIONS);
  });

  it('cancels and changes racing bookings of the same slots leave counts exact and no slot over capacity', async () => {
    const e = await ptEvening('Cancel race', 2, 12);
    const owners = await seedFamilies(t.db, school.schoolId, 12);
    const racers = await seedFamilies(t.db, school.schoolId, 12 * 6);
    const [first, second] = e.teacherIds.map((id) => e.byTeacher.get(id) ?? []);
    const outcomes = { cancelled: 0, changed: 0, changeRefused: 0, racerWins: 0, racerLosses: 0 };
    const statuses: number[] = [];
    for (let round = 0; round < 12; round++) {
      const owner = owners[round] as Family;
      const slot = first?.[round] as Slot;
      // The owner's move target: the other teacher, an hour slot away so it never overlaps the old one.
      const target = second?.[(round + 6) % 12] as Slot;
      const mine = expectStatus<BookingResult>(
        await t.app.inject({
          method: 'POST',
          url: `/api/events/update-slot-for-booking?id=${e.eventId}`,
          headers: { authorization: `Bearer ${owner.token}` },
          payload: { items: [{ slotId: slot.id, studentId: owner.studentId }], idempotencyKey: randomUUID() },
        }),
        200,
      ).created[0] as number;
      const kind = round % 3; // 0: the family cancels, 1: an admin removes it, 2: the family moves it
      const racing = racers.slice(round * 6, round * 6 + 6);
      const ownerCall =
        kind === 0
          ? post(owner.token, `events/remove-booking?eventId=${e.eventId}`, { bookingId: mine })
          : kind === 1
            ? post(school.admin.token, `events/remove-booking?eventId=${e.eventId}`, { bookingId: mine })
            : post(owner.token, `events/update-slot-for-booking?id=${e.eventId}`, {
                items: [{ slotId: target.id, studentId: owner.studentId }],
                cancelBookingIds: [mine],
                idempotencyKey: randomUUID(),
              });
      const [ownerAnswer, ...racerAnswers] = await Promise.all([
        ownerCall,
        // Racers stagger by a few ms so some arrive before the cancel commits and some after; the last
        // one waits for it, so however the machine times the rest, the freed place is raced for.
        ...racing.map((family, i) =>
          new Promise((resolve) => setTimeout(resolve, i * 2))
            .then(() => (i === racing.length - 1 ? ownerCall : undefined))
            .then(() => book(e.eventId, family, kind === 2 && i % 2 === 1 ? target.id : slot.id)),
        ),
      ]);
      const answers = [ownerAnswer as Answer, ...racerAnswers];
      statuses.push(...answers.map((answer) => answer.status));
      for (const answer of racerAnswers) {
        if (answer.status === 200) outcomes.racerWins += 1;
        else {
          expectLostRace(answer);
          outcomes.racerLosses += 1;
        }
      }
      const ownerRow = await t.db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', mine)
        .executeTakeFirstOrThrow();
      if (kind === 2 && ownerAnswer?.status === 409) {
        // The move lost its target to a racer: the change is all or nothing, the old time is kept.
        expectLostRace(ownerAnswer);
        expect(ownerRow.status).toBe('booked');
        outcomes.changeRefused += 1;
      } else {
        expect(ownerAnswer?.status).toBe(200);
        expect(ownerRow.status).toBe('cancelled');
        if (kind === 2) outcomes.changed += 1;
        else outcomes.cancelled += 1;
      }
      // After every round: at most one family per slot, and the counts say exactly who is there.
      const report = await findIntegrityViolations(t.db, [e.eventId]);
      expect(report).toEqual(NO_VIOLATIONS);
      const onSlot = (await liveBookings(t.db, e.eventId)).filter((row) => row.slot_id === slot.id);
      expect(onSlot.length).toBeLessThanOrEqual(1);
    }
    console.info(`cancel racing book: ${JSON.stringify(outcomes)}`);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(outcomes.cancelled).toBe(8);
    expect(outcomes.racerWins).toBeGreaterThan(0);
    expect(outcomes.racerLosses).toBeGreaterThan(0);
  });

  it('the same request (same idempotency key) fired five times at once books once', async () => {
    const e = await ptEvening('Retries', 2, 10);
    const families = await seedFamilies(t.db, school.schoolId, 10);
    const [slotsOf] = e.teacherIds.map((id) => e.byTeacher.get(id) ?? []);
    const rounds = await Promise.all(
      families.map(async (family, i) => {
        const key = randomUUID();
        const slotId = slotsOf?.[i]?.id ?? 0;
        return Promise.all(Array.from({ length: 5 }, () => book(e.eventId, family, slotId, key)));
      }),
    );
    for (const answers of rounds) {
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      const results = answers.map((answer) => answer.body as BookingResult);
      const created = new Set(results.flatMap((result) => result.created));
      expect(created.size).toBe(1);
      expect(results.filter((result) => result.message === BOOKING_TEXT.booked)).toHaveLength(1);
      expect(results.filter((result) => result.message === BOOKING_STATE_TEXT.replayed)).toHaveLength(4);
    }
    const live = await liveBookings(t.db, e.eventId);
    expect(live).toHaveLength(10);
    expect(new Set(live.map((row) => row.parent_id)).size).toBe(10);

    // A change (book the other teacher + cancel) retried five times at once: one change.
    const moves = await Promise.all(
      families.map(async (family, i) => {
        const key = randomUUID();
        const bookingId = live.find((row) => row.parent_id === family.parentId)?.id ?? 0;
        const target = e.byTeacher.get(e.teacherIds[1] ?? 0)?.[(i + 5) % 10]?.id ?? 0;
        return Promise.all(
          Array.from({ length: 5 }, () =>
            post(family.token, `events/update-slot-for-booking?id=${e.eventId}`, {
              items: [{ slotId: target, studentId: family.studentId }],
              cancelBookingIds: [bookingId],
              idempotencyKey: key,
            }),
          ),
        );
      }),
    );
    for (const answers of moves) {
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(answers.flatMap((answer) => (answer.body as BookingResult).created)).size).toBe(1);
    }
    const after = await liveBookings(t.db, e.eventId);
    expect(after).toHaveLength(10);
    expect(after.every((row) => !live.some((before) => before.id === row.id))).toBe(true);
    expect(await findIntegrityViolations(t.db, [e.eventId])).toEqual(NO_VIOLATIONS);
  });

  describe('negative control: without the constraints and the count, a check-then-insert double-books and the check sees it', () => {
    let own: TestDb;
    beforeAll(async () => {
      own = await createTestDb();
    });
    afterAll(() => own?.close());

    /** The bug the constraints prevent, written naively: read, decide, then write, each its own statement. */
    async function naiveBook(db: Db, slotId: number, family: Family): Promise<boolean> {
      const slot = await db
        .selectFrom('slots')
        .selectAll()
        .where('id', '=', slotId)
        .executeTakeFirstOrThrow();
      if (slot.booked_count >= slot.capacity) return false;
      const already = await db
        .selectFrom('bookings')
        .select('id')
        .where('event_id', '=', slot.event_id)
        .where('parent_id', '=', family.parentId)
        .where('status', '=', 'booked')
        .where((eb) =>
          eb.or([
            eb('teacher_id', '=', slot.teacher_id),
            eb.and([eb('starts_at', '<', slot.ends_at), eb('ends_at', '>', slot.starts_at)]),
          ]),
        )
        .execute();
      if (already.length > 0) return false;
      await new Promise((resolve) => setTimeout(resolve, 2)); // the app's work between check and write
      await db
        .insertInto('bookings')
        .values({
          school_id: slot.school_id,
          event_id: slot.event_id,
          slot_id: slot.id,
          teacher_id: slot.teacher_id,
          starts_at: slot.starts_at,
          ends_at: slot.ends_at,
          parent_id: family.parentId,
          student_id: family.studentId,
        })
        .execute();
      await db
        .updateTable('slots')
        .set({ booked_count: sql`booked_count + 1` })
        .where('id', '=', slotId)
        .execute();
      return true;
    }

    it('50 parents on 5 slots: over capacity, same teacher twice and overlaps are all found', async () => {
      const db = own.db;
      const { id: schoolId } = await db
        .insertInto('schools')
        .values({ name: 'Control Academy' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: typeId } = await db
        .insertInto('event_types')
        .values({ school_id: schoolId, name: 'Parent teacher', group_int: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const teachers = await db
        .insertInto('users')
        .values(
          ['a', 'b'].map((name) => ({
            school_id: schoolId,
            email: `teacher-${name}@control.example.org`,
            first_name: 'Teacher',
            last_name: name,
          })),
        )
        .returning('id')
        .execute();
      const { id: eventId } = await db
        .insertInto('events')
        .values({ school_id: schoolId, event_type_id: typeId, name: 'Control', code: 'control001' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const base = Date.parse(`${daysAhead(7)}T16:00:00Z`);
      const { id: sectionId } = await db
        .insertInto('sections')
        .values({
          school_id: schoolId,
          event_id: eventId,
          date: daysAhead(7),
          start_time: '16:00',
          end_time: '16:50',
          starts_at: new Date(base),
          ends_at: new Date(base + 50 * 60_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Teacher A has the 5 raced slots; teacher B the same 5 times (for overlaps).
      const slotRows = await db
        .insertInto('slots')
        .values(
          teachers.flatMap((teacher) =>
            [0, 1, 2, 3, 4].map((k) => ({
              school_id: schoolId,
              event_id: eventId,
              section_id: sectionId,
              teacher_id: teacher.id,
              starts_at: new Date(base + k * 600_000),
              ends_at: new Date(base + (k + 1) * 600_000),
            })),
          ),
        )
        .returning(['id', 'teacher_id'])
        .execute();
      const aSlots = slotRows.filter((row) => row.teacher_id === teachers[0]?.id).map((row) => row.id);
      const bSlots = slotRows.filter((row) => row.teacher_id === teachers[1]?.id).map((row) => row.id);
      const families = await seedFamilies(db, schoolId, 50);

      // With the protections on, the same SQL finds nothing.
      expect(await findIntegrityViolations(db, [eventId])).toEqual(NO_VIOLATIONS);

      // Schema changes are the tables' owner's to make, not the app role's. The places are counted by the
      // naive code itself, as they were before the database counted them (migration 023).
      await asOwner(async () => {
        await sql`ALTER TABLE slots DROP CONSTRAINT slots_booked_count`.execute(db);
        for (const trigger of ['slots_count_derived_added', 'slots_count_derived_changed'])
          await sql`ALTER TABLE slots DISABLE TRIGGER ${sql.id(trigger)}`.execute(db);
        for (const trigger of ['bookings_places_added', 'bookings_places_changed', 'bookings_places_removed'])
          await sql`ALTER TABLE bookings DISABLE TRIGGER ${sql.id(trigger)}`.execute(db);
        await sql`ALTER TABLE bookings DROP CONSTRAINT bookings_parent_overlap,
          DROP CONSTRAINT bookings_student_overlap, DROP CONSTRAINT bookings_parent_teacher_once,
          DROP CONSTRAINT bookings_student_teacher_once`.execute(db);
      });

      // Each parent fires two naive bookings at once: one of the 5 slots of teacher A, and either the next
      // slot of A (same teacher twice) or B at the same time (an overlap).
      const made = await Promise.all(
        families.flatMap((family, i) => [
          naiveBook(db, aSlots[i % 5] ?? 0, family),
          naiveBook(db, i % 2 === 0 ? (aSlots[(i + 1) % 5] ?? 0) : (bSlots[i % 5] ?? 0), family),
        ]),
      );
      expect(made.filter(Boolean).length).toBeGreaterThan(10);

      const report = await findIntegrityViolations(db, [eventId]);
      expect(report.overCapacity.length).toBeGreaterThan(0);
      expect(report.overCapacity.some((slot) => slot.parties > 1)).toBe(true);
      expect(report.parentSameTeacher.length).toBeGreaterThan(0);
      expect(report.studentSameTeacher.length).toBeGreaterThan(0);
      expect(report.parentOverlaps.length).toBeGreaterThan(0);
      expect(report.studentOverlaps.length).toBeGreaterThan(0);
      expect(doubleBookings(report)).toBeGreaterThan(0);

      // A count that drifts from the rows is caught too.
      expect(report.countDrift).toEqual([]);
      await db
        .updateTable('slots')
        .set({ booked_count: 0 })
        .where('id', '=', aSlots[0] ?? 0)
        .execute();
      const drifted = await findIntegrityViolations(db, [eventId]);
      expect(drifted.countDrift.map((slot) => slot.slotId)).toEqual([aSlots[0]]);
    });
  });
});
