import { randomBytes } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../src/db/database';
import { newTicketCode } from '../../src/modules/tickets/tickets.service';
import { issueToken } from '../../src/modules/tokens/tokens.repository';

// What the booking race suite (test/concurrency) and the booking-rush bench share: families made straight
// in the database (200 or 1,000 argon2 logins would take minutes), and the one SQL check that finds double
// bookings after a race. No vitest import: the bench runs this outside the test runner.

export type Family = { parentId: number; studentId: number; token: string };

const CHUNK = 500;

/**
 * `count` parents, each with one child, in a school: users, roles and parent_students rows, and a live
 * access token per parent issued as a login issues it (tokens.repository issueToken).
 */
export async function seedFamilies(db: Db, schoolId: number, count: number): Promise<Family[]> {
  const tag = randomBytes(4).toString('hex');
  const families: Family[] = [];
  for (let start = 0; start < count; start += CHUNK) {
    const indexes = Array.from({ length: Math.min(CHUNK, count - start) }, (_, i) => start + i);
    const people = (kind: 'parent' | 'child') =>
      indexes.map((i) => ({
        school_id: schoolId,
        email: `${kind}${i}.${tag}@race.example.org`,
        first_name: kind === 'parent' ? 'Parent' : 'Child',
        last_name: `Family${i}`,
      }));
    const parents = await db
      .insertInto('users')
      .values(people('parent'))
      .returning(['id', 'email'])
      .execute();
    const children = await db
      .insertInto('users')
      .values(people('child'))
      .returning(['id', 'email'])
      .execute();
    const idOf = (rows: Array<{ id: number; email: string }>) =>
      new Map(rows.map((row) => [row.email, row.id]));
    const parentIds = idOf(parents);
    const childIds = idOf(children);
    const pairs = indexes.map((i) => ({
      parentId: parentIds.get(`parent${i}.${tag}@race.example.org`) ?? 0,
      studentId: childIds.get(`child${i}.${tag}@race.example.org`) ?? 0,
    }));
    await db
      .insertInto('user_roles')
      .values(
        pairs.flatMap((pair) => [
          { user_id: pair.parentId, school_id: schoolId, role: 'parent' as const },
          { user_id: pair.studentId, school_id: schoolId, role: 'student' as const },
        ]),
      )
      .execute();
    await db
      .insertInto('parent_students')
      .values(
        pairs.map((pair) => ({ school_id: schoolId, parent_id: pair.parentId, student_id: pair.studentId })),
      )
      .execute();
    for (let i = 0; i < pairs.length; i += 20) {
      const batch = pairs.slice(i, i + 20);
      const tokens = await Promise.all(
        batch.map((pair) => issueToken(db, { userId: pair.parentId, schoolId, kind: 'access' })),
      );
      batch.forEach((pair, index) => {
        families.push({ ...pair, token: tokens[index] ?? '' });
      });
    }
  }
  return families;
}

/**
 * One ticket per family (the child's) at a ticketed event, booked straight in the database in chunks;
 * returns the codes in the families' order (the door-race suite and bench/door).
 */
export async function seedTickets(
  db: Db,
  schoolId: number,
  eventId: number,
  families: Family[],
): Promise<string[]> {
  const slot = await db
    .selectFrom('slots')
    .select(['id', 'starts_at', 'ends_at'])
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  const codes: string[] = [];
  for (let i = 0; i < families.length; i += 1000) {
    const bookings = await db
      .insertInto('bookings')
      .values(
        families.slice(i, i + 1000).map((family) => ({
          school_id: schoolId,
          event_id: eventId,
          slot_id: slot.id,
          teacher_id: null,
          starts_at: slot.starts_at,
          ends_at: slot.ends_at,
          parent_id: family.parentId,
          student_id: family.studentId,
          subject_id: null,
          booked_by: family.parentId,
        })),
      )
      .returning(['id', 'student_id'])
      .execute();
    const tickets = bookings.map((booking) => ({
      school_id: schoolId,
      event_id: eventId,
      booking_id: booking.id,
      user_id: booking.student_id ?? 0,
      guest_index: 0,
      code: newTicketCode(),
    }));
    await db.insertInto('tickets').values(tickets).execute();
    codes.push(...tickets.map((ticket) => ticket.code));
  }
  return codes;
}

// ── the double-booking check ─────────────────────────────────────────────────────────────────────────

/** Everything that must never be found after a race; each list empty when the data is sound. */
export type IntegrityReport = {
  /** Slots holding more than their places (parties; people at a ticketed event), or counting more. */
  overCapacity: Array<{ slotId: number; capacity: number; bookedCount: number; parties: number }>;
  /** Slots whose booked_count is not the places their live bookings take. */
  countDrift: Array<{ slotId: number; bookedCount: number; parties: number }>;
  /** A parent with two slots of one teacher in one event. */
  parentSameTeacher: Array<{ eventId: number; parentId: number; teacherId: number; slots: number }>;
  /** A child with two slots of one teacher in one event (whoever booked them). */
  studentSameTeacher: Array<{ eventId: number; studentId: number; teacherId: number; slots: number }>;
  /** A parent in two overlapping appointments (siblings sharing one slot are not an overlap). */
  parentOverlaps: Array<{ parentId: number; first: number; second: number }>;
  /** A child in two overlapping appointments. */
  studentOverlaps: Array<{ studentId: number; first: number; second: number }>;
  /** Live bookings without their slot, or whose copy of the slot's event, teacher or times differs. */
  misplaced: Array<{ bookingId: number }>;
};

/** What the check reports when the data is sound. */
export const NO_VIOLATIONS: IntegrityReport = {
  overCapacity: [],
  countDrift: [],
  parentSameTeacher: [],
  studentSameTeacher: [],
  parentOverlaps: [],
  studentOverlaps: [],
  misplaced: [],
};

export const doubleBookings = (report: IntegrityReport): number =>
  report.overCapacity.length +
  report.parentSameTeacher.length +
  report.studentSameTeacher.length +
  report.parentOverlaps.length +
  report.studentOverlaps.length;

export const violations = (report: IntegrityReport): number =>
  doubleBookings(report) + report.countDrift.length + report.misplaced.length;

const PARTY = sql`coalesce('p' || b.parent_id, 's' || b.student_id)`;

function inEvents(column: string, eventIds: number[] | undefined): RawBuilder<unknown> {
  if (!eventIds) return sql`true`;
  return sql`${sql.ref(column)} in (${sql.join(eventIds.length > 0 ? eventIds : [0])})`;
}

/**
 * The SQL check run after every race (and by bench/booking-rush): live bookings only, in the given events
 * (all when absent). It reads rows, not the constraints, so it finds double bookings whether or not the
 * constraints exist (the negative control drops them).
 */
export async function findIntegrityViolations(db: Db, eventIds?: number[]): Promise<IntegrityReport> {
  // Places a slot's live bookings take: a party each, or at a ticketed event (groups 2, 3) a person each
  // (the attendee and their guests).
  const perSlot = await sql<{ slot_id: number; capacity: number; booked_count: number; parties: number }>`
    select sl.id as slot_id, sl.capacity, sl.booked_count,
      case when et.group_int in (2, 3)
        then (select coalesce(sum(1 + b.guests), 0)::int from bookings b where b.slot_id = sl.id and b.status = 'booked')
        else (select count(distinct ${PARTY})::int from bookings b where b.slot_id = sl.id and b.status = 'booked')
      end as parties
    from slots sl
    join events e on e.id = sl.event_id
    join event_types et on et.id = e.event_type_id
    where ${inEvents('sl.event_id', eventIds)}`.execute(db);
  const parentSameTeacher = await sql<{
    event_id: number;
    parent_id: number;
    teacher_id: number;
    slots: number;
  }>`
    select b.event_id, b.parent_id, b.teacher_id, count(distinct b.slot_id)::int as slots
    from bookings b
    where b.status = 'booked' and b.parent_id is not null and b.teacher_id is not null
      and ${inEvents('b.event_id', eventIds)}
    group by b.event_id, b.parent_id, b.teacher_id
    having count(distinct b.slot_id) > 1`.execute(db);
  const studentSameTeacher = await sql<{
    event_id: number;
    student_id: number;
    teacher_id: number;
    slots: number;
  }>`
    select b.event_id, b.student_id, b.teacher_id, count(distinct b.slot_id)::int as slots
    from bookings b
    where b.status = 'booked' and b.student_id is not null and b.teacher_id is not null
      and ${inEvents('b.event_id', eventIds)}
    group by b.event_id, b.student_id, b.teacher_id
    having count(distinct b.slot_id) > 1`.execute(db);
  const overlaps = (who: 'parent_id' | 'student_id') =>
    sql<{ who: number; first: number; second: number }>`
    select a.${sql.raw(who)} as who, a.id as first, b.id as second
    from bookings a
    join bookings b on b.${sql.raw(who)} = a.${sql.raw(who)} and b.id > a.id
      and tstzrange(b.starts_at, b.ends_at) && tstzrange(a.starts_at, a.ends_at)
      ${who === 'parent_id' ? sql`and b.slot_id is distinct from a.slot_id` : sql``}
    where a.status = 'booked' and b.status = 'booked' and ${inEvents('a.event_id', eventIds)}`.execute(db);
  const parentOverlaps = await overlaps('parent_id');
  const studentOverlaps = await overlaps('student_id');
  const misplaced = await sql<{ id: number }>`
    select b.id from bookings b
    left join slots sl on sl.id = b.slot_id
    where b.status = 'booked' and ${inEvents('b.event_id', eventIds)}
      and (sl.id is null or sl.event_id <> b.event_id or sl.teacher_id is distinct from b.teacher_id
        or sl.starts_at <> b.starts_at or sl.ends_at <> b.ends_at)`.execute(db);

  return {
    overCapacity: perSlot.rows
      .filter((row) => row.parties > row.capacity || row.booked_count > row.capacity)
      .map((row) => ({
        slotId: row.slot_id,
        capacity: row.capacity,
        bookedCount: row.booked_count,
        parties: row.parties,
      })),
    countDrift: perSlot.rows
      .filter((row) => row.booked_count !== row.parties)
      .map((row) => ({ slotId: row.slot_id, bookedCount: row.booked_count, parties: row.parties })),
    parentSameTeacher: parentSameTeacher.rows.map((row) => ({
      eventId: row.event_id,
      parentId: row.parent_id,
      teacherId: row.teacher_id,
      slots: row.slots,
    })),
    studentSameTeacher: studentSameTeacher.rows.map((row) => ({
      eventId: row.event_id,
      studentId: row.student_id,
      teacherId: row.teacher_id,
      slots: row.slots,
    })),
    parentOverlaps: parentOverlaps.rows.map((row) => ({
      parentId: row.who,
      first: row.first,
      second: row.second,
    })),
    studentOverlaps: studentOverlaps.rows.map((row) => ({
      studentId: row.who,
      first: row.first,
      second: row.second,
    })),
    misplaced: misplaced.rows.map((row) => ({ bookingId: row.id })),
  };
}
