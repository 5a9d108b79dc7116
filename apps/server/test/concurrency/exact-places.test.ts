import { BOOKING_STATE_TEXT, BOOKING_TEXT, type BookingResult } from '@parley/domain/booking';
import type { DoorState, ScanTicketResponse } from '@parley/domain/tickets';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  book,
  booked,
  type Evening,
  evening,
  kindEvent,
  OPEN_DOOR,
  sessionFor,
} from '../booking/booking-helpers';
import { expectStatus, type Member } from '../directory/directory-helpers';
import { daysAhead, type EventSchool, insertBooking, type SectionBody } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { type Family, findIntegrityViolations, NO_VIOLATIONS, seedFamilies } from './race-support';

// A slot's places are exact (issue 34's five bugs, each failing before migration 023): booked_count is the places its live bookings take
// (a party each, siblings booked together sharing one; at a ticketed event a person each), whoever cancels,
// whoever races whom, and the door's admissions survive a change of guests. Races are Promise.all of
// app.inject calls, several rounds on fresh slots, so a race the code loses shows in (nearly) every run;
// each round's outcome is collected and compared at the end, so a failure shows every round at once.

let t: TestApp;
let e: Evening;

/** A request's outcome as a family sees it. */
type Answer = { status: number; message: string };
const answer = (res: LightMyRequestResponse): Answer => ({
  status: res.statusCode,
  message: String((res.json() as { message?: unknown }).message),
});

/** What the loser of two cancels (or moves) of one booking may be told. */
const GONE: string[] = [BOOKING_TEXT.bookingNotFound, BOOKING_STATE_TEXT.alreadyCancelled];

/** "200 <message>" for a success, "404 gone" for a lost cancel or move, else the status and message. */
const outcome = (a: Answer) =>
  a.status === 404 && GONE.includes(a.message) ? '404 gone' : `${a.status} ${a.message}`;

const ev = (eventId: number) => ({ http: e.http, eventId });

const removeBooking = (eventId: number, token: string, bookingId: number) =>
  e.http.post(`events/remove-booking?eventId=${eventId}`, token, { bookingId });

// Every event on a day of its own: the same children book in several of them, and a child (or parent) is
// never in two overlapping appointments, whichever event they are in.
let day = 7;
const nextDate = () => daysAhead(day++);

type Made = { eventId: number; slots: Array<{ id: number; teacherId: number | null; capacity: number }> };

/** An enabled event of the school (kindEvent) and its slots in time order. */
async function makeEvent(
  kind: keyof EventSchool['types'],
  name: string,
  options: Record<string, unknown>,
  sections: SectionBody[],
): Promise<Made> {
  // Its door open (issue 35): the tests scan events days ahead.
  const { eventId } = await kindEvent(t, e, kind, name, { ...options, ...OPEN_DOOR }, sections);
  const rows = await t.db
    .selectFrom('slots')
    .select(['id', 'teacher_id', 'capacity'])
    .where('event_id', '=', eventId)
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  return {
    eventId,
    slots: rows.map((row) => ({ id: row.id, teacherId: row.teacher_id, capacity: row.capacity })),
  };
}

/** A parent-teacher evening, 16:00–18:00 in 10-minute slots of `usersPerSlot` families, for `teachers` teachers. */
async function parentTeacherEvent(name: string, usersPerSlot: number, teachers: number) {
  const made = await makeEvent('parentTeacher', name, { slotMinutes: 10, usersPerSlot }, [
    {
      date: nextDate(),
      start: '16:00',
      end: '18:00',
      teachers: e.teachers.slice(0, teachers).map((teacher) => ({ teacherId: teacher.id })),
    },
  ]);
  expect(made.slots.every((slot) => slot.capacity === usersPerSlot)).toBe(true);
  const column = (i: number) =>
    made.slots.filter((slot) => slot.teacherId === e.teachers[i]?.id).map((slot) => slot.id);
  return { eventId: made.eventId, columns: Array.from({ length: teachers }, (_, i) => column(i)) };
}

/** A ticketed event of `sections` evenings, one slot each, of `usersPerSlot` people. */
async function ticketedEvent(
  name: string,
  options: { usersPerSlot: number; guestAllowance: number },
  sections = 1,
) {
  const made = await makeEvent(
    'ticketed',
    name,
    options,
    Array.from({ length: sections }, () => ({
      date: nextDate(),
      start: '18:30',
      end: '20:30',
      location: 'Theatre',
    })),
  );
  expect(made.slots.map((slot) => slot.capacity)).toEqual(Array(sections).fill(options.usersPerSlot));
  return { eventId: made.eventId, slots: made.slots.map((slot) => slot.id) };
}

const bookedCount = async (slotId: number) =>
  (await t.db.selectFrom('slots').select('booked_count').where('id', '=', slotId).executeTakeFirstOrThrow())
    .booked_count;

/** The parties a slot's live bookings are (coalesce(parent, student), as the places count them). */
async function liveFamilies(slotId: number): Promise<number> {
  const { rows } = await sql<{ families: number }>`
    select count(distinct coalesce('p' || parent_id, 's' || student_id))::int as families
    from bookings where slot_id = ${slotId} and status = 'booked'`.execute(t.db);
  return rows[0]?.families ?? 0;
}

/** The people a ticketed slot's live bookings bring (1 + guests each). */
async function livePeople(slotId: number): Promise<number> {
  const { rows } = await sql<{ people: number }>`
    select coalesce(sum(1 + guests), 0)::int as people
    from bookings where slot_id = ${slotId} and status = 'booked'`.execute(t.db);
  return rows[0]?.people ?? 0;
}

/** The live bookings of a child in an event, whoever made them. */
const liveOfChild = (eventId: number, studentId: number) =>
  t.db
    .selectFrom('bookings')
    .select(['id', 'slot_id', 'guests'])
    .where('event_id', '=', eventId)
    .where('student_id', '=', studentId)
    .where('status', '=', 'booked')
    .execute();

/** A family's booking of one slot for its child (with guests), as the family makes it; the new booking's id. */
async function bookChild(eventId: number, family: Family, slotId: number, guests = 0): Promise<number> {
  const result = await booked(ev(eventId), family.token, [{ slotId, studentId: family.studentId, guests }]);
  return result.created[0] ?? 0;
}

/** Families booking one slot all at once; their statuses, sorted. */
async function rush(eventId: number, families: Family[], slotId: number, guests = 0): Promise<number[]> {
  const answers = await Promise.all(
    families.map((family) =>
      book(ev(eventId), family.token, [{ slotId, studentId: family.studentId, guests }]),
    ),
  );
  return answers.map((res) => res.statusCode).sort();
}

/** Over capacity and count drift, the two findings the places are about: the event's, or some slots' of it. */
async function placesReport(eventId: number, slotIds?: number[]) {
  const report = await findIntegrityViolations(t.db, [eventId]);
  const mine = (finding: { slotId: number }) => slotIds === undefined || slotIds.includes(finding.slotId);
  return { overCapacity: report.overCapacity.filter(mine), countDrift: report.countDrift.filter(mine) };
}

describe.runIf(process.env.TEST_DB === 'pg')('exact places on PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp();
    e = await evening(t, { quick: true, schoolName: 'Exact Places Academy' });
  });
  afterAll(() => t?.close());

  // ── 1. a student's own cancel or move of a slot shared with a sibling ─────────────────────────────────

  describe('a student acting on their own row of a slot shared with a sibling keeps the family’s place', () => {
    const cases = [
      { kind: 'parentTeacher', action: 'cancel' },
      { kind: 'parentTeacher', action: 'move' },
      { kind: 'booking', action: 'cancel' },
      { kind: 'booking', action: 'move' },
    ] as const;

    it.each(cases)(
      '$action at a $kind event: booked_count stays 1 and another family gets 409',
      async ({ kind, action }) => {
        const [a, b] = e.children as [Member, Member];
        // The shared slot and the student's move target (later, so never an overlap with it).
        let shared: number;
        let target: number;
        let eventId: number;
        if (kind === 'parentTeacher') {
          const made = await parentTeacherEvent(`Siblings ${action}`, 1, 2);
          eventId = made.eventId;
          shared = made.columns[0]?.[0] ?? 0;
          target = made.columns[1]?.[3] ?? 0;
        } else {
          const made = await makeEvent('booking', `Tours ${action}`, { slotMinutes: 30 }, [
            { date: nextDate(), start: '10:00', end: '11:00', location: 'Reception' },
          ]);
          expect(made.slots.map((slot) => slot.capacity)).toEqual([1, 1]);
          eventId = made.eventId;
          shared = made.slots[0]?.id ?? 0;
          target = made.slots[1]?.id ?? 0;
        }
        // One request, both children: one family, two rows, one place.
        const both = await booked(ev(eventId), e.parent.token, [
          { slotId: shared, studentId: a.id },
          { slotId: shared, studentId: b.id },
        ]);
        expect(both.created).toHaveLength(2);
        expect(await bookedCount(shared)).toBe(1);
        const [aRow] = await liveOfChild(eventId, a.id);

        const act =
          action === 'cancel'
            ? await removeBooking(eventId, a.token, aRow?.id ?? 0)
            : await book(ev(eventId), a.token, [{ slotId: target, studentId: a.id }], {
                cancelBookingIds: [aRow?.id ?? 0],
              });
        const actAnswer = answer(act);
        const countAfter = await bookedCount(shared);
        const sibling = (await liveOfChild(eventId, b.id)).map((row) => row.slot_id);
        const otherFamily = answer(
          await book(ev(eventId), e.otherParent.token, [{ slotId: shared, studentId: e.otherChild.id }]),
        );
        expect({
          act: actAnswer,
          bookedCountAfter: countAfter,
          siblingStillOn: sibling,
          otherFamily,
          familiesOnSlot: await liveFamilies(shared),
          places: await placesReport(eventId),
        }).toEqual({
          act: { status: 200, message: action === 'cancel' ? BOOKING_TEXT.cancelled : BOOKING_TEXT.changed },
          bookedCountAfter: 1,
          siblingStillOn: [shared],
          otherFamily: { status: 409, message: BOOKING_TEXT.slotTaken },
          familiesOnSlot: 1,
          places: { overCapacity: [], countDrift: [] },
        });
        if (action === 'move') expect(await bookedCount(target)).toBe(1);
        expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
      },
    );
  });

  // ── 2. parent and student cancel one booking at once ─────────────────────────────────────────────────

  it('parent and student cancelling one booking at once: one 200, one 404, the place given back once', async () => {
    const rounds = 8;
    const { eventId, columns } = await parentTeacherEvent('Two cancels', 2, 1);
    const seen: unknown[] = [];
    for (let round = 0; round < rounds; round++) {
      const slotId = columns[0]?.[round] ?? 0;
      const [bystander, owner, ...rushers] = (await seedFamilies(t.db, e.schoolId, 5)) as [
        Family,
        Family,
        ...Family[],
      ];
      await bookChild(eventId, bystander, slotId);
      const mine = await bookChild(eventId, owner, slotId);
      const childToken = await sessionFor(t, owner.studentId);
      expect(await bookedCount(slotId)).toBe(2);

      const cancels = await Promise.all([
        removeBooking(eventId, owner.token, mine),
        removeBooking(eventId, childToken, mine),
      ]);
      const afterCancel = await bookedCount(slotId);
      // Three families for the one place given back, at once.
      const rushed = await rush(eventId, rushers, slotId);
      seen.push({
        cancels: cancels.map((res) => outcome(answer(res))).sort(),
        bookedCountAfterCancel: afterCancel,
        rush: rushed,
        familiesOnSlot: await liveFamilies(slotId),
        bookedCount: await bookedCount(slotId),
        places: await placesReport(eventId, [slotId]),
      });
    }
    console.info(`two cancels: ${JSON.stringify(seen)}`);
    expect(seen).toEqual(
      Array(rounds).fill({
        cancels: [`200 ${BOOKING_TEXT.cancelled}`, '404 gone'],
        bookedCountAfterCancel: 1,
        rush: [200, 409, 409],
        familiesOnSlot: 2,
        bookedCount: 2,
        places: { overCapacity: [], countDrift: [] },
      }),
    );
    expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
  });

  // ── 3. parent and student move one booking at once, to two teachers ──────────────────────────────────

  it('parent and student moving one booking at once: one 200, one 404, one appointment, the slot left released once', async () => {
    const rounds = 8;
    const { eventId, columns } = await parentTeacherEvent('Two moves', 2, 3);
    const seen: unknown[] = [];
    const want: unknown[] = [];
    for (let round = 0; round < rounds; round++) {
      // The slot left and the two targets: three teachers at three different times.
      const left = columns[0]?.[round] ?? 0;
      const x = columns[1]?.[(round + 3) % 12] ?? 0;
      const y = columns[2]?.[(round + 6) % 12] ?? 0;
      const label = (slotId: number | null) =>
        slotId === left ? 'left' : slotId === x ? 'X' : slotId === y ? 'Y' : String(slotId);
      const [bystander, owner, ...rushers] = (await seedFamilies(t.db, e.schoolId, 5)) as [
        Family,
        Family,
        ...Family[],
      ];
      await bookChild(eventId, bystander, left);
      const mine = await bookChild(eventId, owner, left);
      const childToken = await sessionFor(t, owner.studentId);

      const moves = (
        await Promise.all([
          book(ev(eventId), owner.token, [{ slotId: x, studentId: owner.studentId }], {
            cancelBookingIds: [mine],
          }),
          book(ev(eventId), childToken, [{ slotId: y, studentId: owner.studentId }], {
            cancelBookingIds: [mine],
          }),
        ])
      ).map(answer);
      const winner = moves[0]?.status === 200 ? 'X' : 'Y';
      const appointments = (await liveOfChild(eventId, owner.studentId))
        .map((row) => label(row.slot_id))
        .sort();
      const leftCount = await bookedCount(left);
      const leftFamilies = await liveFamilies(left);
      const rushed = await rush(eventId, rushers, left);
      seen.push({
        moves: moves.map(outcome).sort(),
        childAppointments: appointments,
        leftBookedCount: leftCount,
        leftFamilies,
        rush: rushed,
        familiesOnLeftAfterRush: await liveFamilies(left),
        places: await placesReport(eventId, [left, x, y]),
      });
      want.push({
        moves: [`200 ${BOOKING_TEXT.changed}`, '404 gone'],
        childAppointments: [winner],
        leftBookedCount: 1,
        leftFamilies: 1,
        rush: [200, 409, 409],
        familiesOnLeftAfterRush: 2,
        places: { overCapacity: [], countDrift: [] },
      });
    }
    console.info(`two moves: ${JSON.stringify(seen)}`);
    expect(seen).toEqual(want);
    expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
  });

  // ── 4. a ticketed booking cancelled by parent and child at once ───────────────────────────────────────

  it('a ticketed booking (4 people) cancelled by parent and child at once gives back 4 places, once', async () => {
    const rounds = 6;
    const { eventId, slots } = await ticketedEvent(
      'Spring concert',
      { usersPerSlot: 10, guestAllowance: 3 },
      rounds,
    );
    const seen: unknown[] = [];
    for (let round = 0; round < rounds; round++) {
      const slotId = slots[round] ?? 0;
      const [first, second, owner, ...rushers] = (await seedFamilies(t.db, e.schoolId, 7)) as [
        Family,
        Family,
        Family,
        ...Family[],
      ];
      // Bystanders: 3 + 3 people. The owner's child and 3 guests: 4 more, the slot is full.
      await bookChild(eventId, first, slotId, 2);
      await bookChild(eventId, second, slotId, 2);
      const mine = await bookChild(eventId, owner, slotId, 3);
      expect(await bookedCount(slotId)).toBe(10);
      const childToken = await sessionFor(t, owner.studentId);

      const cancels = await Promise.all([
        removeBooking(eventId, owner.token, mine),
        removeBooking(eventId, childToken, mine),
      ]);
      const afterCancel = await bookedCount(slotId);
      // Four families of four people for the four places given back.
      const rushed = await rush(eventId, rushers, slotId, 3);
      const { rows } = await sql<{ valid: number }>`
        select count(*)::int as valid from tickets tk join bookings b on b.id = tk.booking_id
        where b.slot_id = ${slotId} and tk.status = 'valid'`.execute(t.db);
      seen.push({
        cancels: cancels.map((res) => outcome(answer(res))).sort(),
        bookedCountAfterCancel: afterCancel,
        rush: rushed,
        people: await livePeople(slotId),
        bookedCount: await bookedCount(slotId),
        validTickets: rows[0]?.valid,
        places: await placesReport(eventId, [slotId]),
      });
    }
    console.info(`ticketed cancels: ${JSON.stringify(seen)}`);
    expect(seen).toEqual(
      Array(rounds).fill({
        cancels: [`200 ${BOOKING_TEXT.cancelled}`, '404 gone'],
        bookedCountAfterCancel: 6,
        rush: [200, 409, 409, 409],
        people: 10,
        bookedCount: 10,
        validTickets: 10,
        places: { overCapacity: [], countDrift: [] },
      }),
    );
    expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
  });

  // ── 5. guests changed after the door admitted the family ─────────────────────────────────────────────

  describe('guests changed after the door admitted some of the family', () => {
    type TicketRow = { guestIndex: number; code: string; status: string };

    /** The attendee's tickets (every one, valid or void), by guest index. */
    async function ticketsOf(eventId: number, userId: number): Promise<TicketRow[]> {
      const rows = await t.db
        .selectFrom('tickets')
        .select(['guest_index', 'code', 'status'])
        .where('event_id', '=', eventId)
        .where('user_id', '=', userId)
        .orderBy('guest_index')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ guestIndex: row.guest_index, code: row.code, status: row.status }));
    }

    /** Admits a ticket at the door as the school's admin; whether it came in now, or had already. */
    async function scan(eventId: number, code: string) {
      const { data } = expectStatus<ScanTicketResponse>(
        await e.http.post('tickets/scan-ticket', e.admin.token, { ticketId: code, eventId }),
        200,
      );
      return { success: data.success, alreadyScanned: data.alreadyScanned };
    }

    const admitted = async (eventId: number) =>
      expectStatus<DoorState>(await e.http.get(`tickets/door?eventId=${eventId}`, e.admin.token), 200)
        .admitted;

    /** A concert, a family booking its child with `guests` guests; the child's tickets. */
    async function familyAtConcert(name: string, guests: number) {
      const { eventId, slots } = await ticketedEvent(name, { usersPerSlot: 100, guestAllowance: 2 });
      const slotId = slots[0] ?? 0;
      const [family] = (await seedFamilies(t.db, e.schoolId, 1)) as [Family];
      const bookingId = await bookChild(eventId, family, slotId, guests);
      const tickets = await ticketsOf(eventId, family.studentId);
      expect(tickets.map((ticket) => [ticket.guestIndex, ticket.status])).toEqual(
        Array.from({ length: 1 + guests }, (_, i) => [i, 'valid']),
      );
      return { eventId, slotId, family, bookingId, tickets };
    }

    /** The family's change of guests as the web app sends it (placeAction): the same slot, the old booking cancelled. */
    const changeGuests = (
      c: { eventId: number; slotId: number; family: Family; bookingId: number },
      guests: number,
    ) =>
      book(ev(c.eventId), c.family.token, [{ slotId: c.slotId, studentId: c.family.studentId, guests }], {
        cancelBookingIds: [c.bookingId],
      });

    it('all three admitted, guests 2 → 1: 409, every ticket kept and valid, the door still counts 3', async () => {
      const c = await familyAtConcert('Door concert', 2);
      for (const ticket of c.tickets)
        expect(await scan(c.eventId, ticket.code)).toEqual({ success: true, alreadyScanned: false });
      expect(await admitted(c.eventId)).toBe(3);

      const change = answer(await changeGuests(c, 1));
      expect({
        change,
        tickets: await ticketsOf(c.eventId, c.family.studentId),
        admitted: await admitted(c.eventId),
        guests: (await liveOfChild(c.eventId, c.family.studentId)).map((row) => row.guests),
        people: await bookedCount(c.slotId),
      }).toEqual({
        change: { status: 409, message: BOOKING_STATE_TEXT.guestsAdmitted },
        tickets: c.tickets,
        admitted: 3,
        guests: [2],
        people: 3,
      });
      expect(await findIntegrityViolations(t.db, [c.eventId])).toEqual(NO_VIOLATIONS);
    });

    it('only the attendee admitted, guests 2 → 1: 200, tickets 0 and 1 keep their codes, 2 is void, the door still counts 1', async () => {
      const c = await familyAtConcert('Half door concert', 2);
      const [attendee, guest1, guest2] = c.tickets as [TicketRow, TicketRow, TicketRow];
      expect(await scan(c.eventId, attendee.code)).toEqual({ success: true, alreadyScanned: false });
      expect(await admitted(c.eventId)).toBe(1);

      const change = answer(await changeGuests(c, 1));
      const tickets = await ticketsOf(c.eventId, c.family.studentId);
      const admittedAfter = await admitted(c.eventId);
      const guests = (await liveOfChild(c.eventId, c.family.studentId)).map((row) => row.guests);
      // The old codes still open the door: the guest's comes in now, the attendee's was in already.
      const rescans = [await scan(c.eventId, guest1.code), await scan(c.eventId, attendee.code)];
      expect({
        change,
        tickets,
        admittedAfter,
        guests,
        rescans,
        people: await bookedCount(c.slotId),
      }).toEqual({
        change: { status: 200, message: BOOKING_TEXT.changed },
        tickets: [attendee, guest1, { ...guest2, status: 'void' }],
        admittedAfter: 1,
        guests: [1],
        rescans: [
          { success: true, alreadyScanned: false },
          { success: false, alreadyScanned: true },
        ],
        people: 2,
      });
      expect(await admitted(c.eventId)).toBe(2);
      expect(await findIntegrityViolations(t.db, [c.eventId])).toEqual(NO_VIOLATIONS);
    });

    it('guests 1 → 2: 200, the existing codes kept, exactly one new valid ticket', async () => {
      const c = await familyAtConcert('More guests concert', 1);
      const [attendee, guest1] = c.tickets as [TicketRow, TicketRow];
      const result = await changeGuests(c, 2);
      const old = new Set(c.tickets.map((ticket) => ticket.code));
      // A code not issued before reads as "new": what the guest added gets, and nothing else should.
      const tickets = (await ticketsOf(c.eventId, c.family.studentId)).map((ticket) =>
        old.has(ticket.code) ? ticket : { ...ticket, code: 'new' },
      );
      expect({
        change: answer(result),
        tickets,
        guests: (await liveOfChild(c.eventId, c.family.studentId)).map((row) => row.guests),
        people: await bookedCount(c.slotId),
      }).toEqual({
        change: { status: 200, message: BOOKING_TEXT.changed },
        tickets: [attendee, guest1, { guestIndex: 2, code: 'new', status: 'valid' }],
        guests: [2],
        people: 3,
      });
      expect((result.json() as BookingResult).bookings[0]?.guests).toBe(2);
      expect(await findIntegrityViolations(t.db, [c.eventId])).toEqual(NO_VIOLATIONS);
    });
  });

  // ── the database's own refusal ───────────────────────────────────────────────────────────────────────

  describe('PostgreSQL refuses a slot whose booked_count is not its live places (23514)', () => {
    /** The SQLSTATE a statement fails with; null when it succeeds. */
    async function sqlState(work: () => Promise<unknown>): Promise<string | null> {
      try {
        await work();
        return null;
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    }

    /** What must not change when the database refuses: the slot's count and its bookings. */
    async function slotState(slotId: number) {
      const bookings = await t.db
        .selectFrom('bookings')
        .select(['id', 'parent_id', 'status'])
        .where('slot_id', '=', slotId)
        .orderBy('id')
        .execute();
      return { bookedCount: await bookedCount(slotId), bookings };
    }

    /** An evening of one teacher, slots of one family; and families for it. */
    async function fullSlotSetup(name: string, families: number) {
      const { eventId, columns } = await parentTeacherEvent(name, 1, 1);
      const slots = columns[0] ?? [];
      return { eventId, slots, families: await seedFamilies(t.db, e.schoolId, families) };
    }

    it('(a) a second family’s live row inserted into a full slot of one place', async () => {
      const { eventId, slots, families } = await fullSlotSetup('Refuse insert', 2);
      const [owner, intruder] = families as [Family, Family];
      const slotId = slots[0] ?? 0;
      await bookChild(eventId, owner, slotId);
      const before = await slotState(slotId);
      const code = await sqlState(() =>
        insertBooking(t.db, slotId, { parentId: intruder.parentId, studentId: intruder.studentId }),
      );
      expect({ code, after: await slotState(slotId) }).toEqual({ code: '23514', after: before });
      expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
    });

    it('(b) booked_count set to 0 on a slot whose live row holds its one place', async () => {
      const { eventId, slots, families } = await fullSlotSetup('Refuse zero', 1);
      const slotId = slots[0] ?? 0;
      await bookChild(eventId, families[0] as Family, slotId);
      const before = await slotState(slotId);
      const code = await sqlState(() =>
        t.db.updateTable('slots').set({ booked_count: 0 }).where('id', '=', slotId).execute(),
      );
      expect({ code, after: await slotState(slotId) }).toEqual({ code: '23514', after: before });
      expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
    });

    it('(c) a new slot counting 3 places that no booking takes', async () => {
      const { eventId } = await fullSlotSetup('Refuse new slot', 0);
      const section = await t.db
        .selectFrom('sections')
        .selectAll()
        .where('event_id', '=', eventId)
        .executeTakeFirstOrThrow();
      const slotsBefore = await t.db
        .selectFrom('slots')
        .select('id')
        .where('event_id', '=', eventId)
        .execute();
      // Capacity 5: within the old CHECK (0..capacity), so only a count of the live places refuses it.
      const code = await sqlState(() =>
        t.db
          .insertInto('slots')
          .values({
            school_id: section.school_id,
            event_id: eventId,
            section_id: section.id,
            teacher_id: null,
            starts_at: new Date(section.ends_at.getTime() + 60 * 60_000),
            ends_at: new Date(section.ends_at.getTime() + 70 * 60_000),
            capacity: 5,
            booked_count: 3,
          })
          .execute(),
      );
      const slotsAfter = await t.db
        .selectFrom('slots')
        .select('id')
        .where('event_id', '=', eventId)
        .execute();
      expect({ code, slots: slotsAfter }).toEqual({ code: '23514', slots: slotsBefore });
      expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
    });

    it('(d) a cancelled booking made live again in a slot that is full now', async () => {
      const { eventId, slots, families } = await fullSlotSetup('Refuse revival', 2);
      const [gone, now] = families as [Family, Family];
      const slotId = slots[0] ?? 0;
      const old = await bookChild(eventId, gone, slotId);
      expectStatus(await removeBooking(eventId, gone.token, old), 200);
      await bookChild(eventId, now, slotId);
      const before = await slotState(slotId);
      expect(before.bookedCount).toBe(1);
      const code = await sqlState(() =>
        t.db
          .updateTable('bookings')
          .set({ status: 'booked', cancelled_at: null })
          .where('id', '=', old)
          .execute(),
      );
      expect({ code, after: await slotState(slotId) }).toEqual({ code: '23514', after: before });
      expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
    });

    it('(e) an event whose kind changes between counting families and people is counted again', async () => {
      const { eventId, slots } = await ticketedEvent('Kind change', { usersPerSlot: 10, guestAllowance: 2 });
      const slotId = slots[0] ?? 0;
      await booked(ev(eventId), e.parent.token, [
        { slotId, studentId: e.children[0]?.id, guests: 2 },
        { slotId, studentId: e.children[1]?.id, guests: 1 },
      ]);
      expect(await bookedCount(slotId)).toBe(5); // people: 3 + 2
      // The app refuses this once sections exist; the database keeps the count true whatever writes it.
      await t.db
        .updateTable('events')
        .set({ event_type_id: e.types.booking })
        .where('id', '=', eventId)
        .execute();
      expect(await bookedCount(slotId)).toBe(1); // one family
      await t.db
        .updateTable('events')
        .set({ event_type_id: e.types.ticketed })
        .where('id', '=', eventId)
        .execute();
      expect(await bookedCount(slotId)).toBe(5);
      expect(await findIntegrityViolations(t.db, [eventId])).toEqual(NO_VIOLATIONS);
    });
  });
});
