import { type RawBuilder, sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once';
import type { Db } from '../../db/database';
import { likeLiteral } from '../../db/like';

// Tickets and their scans (decision 013). Every query names the school: another school's ticket is not
// found, exactly like a code that was never issued.

export type NewTicket = {
  school_id: number;
  event_id: number;
  booking_id: number;
  user_id: number;
  guest_index: number;
  code: string;
};

export async function insertTickets(db: Db, rows: NewTicket[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('tickets').values(rows).execute();
}

/** Voids the live tickets of these bookings not yet admitted (re-issued: an admitted one stays, its person is in). */
export async function voidUnadmittedTickets(db: Db, schoolId: number, bookingIds: number[]): Promise<void> {
  if (bookingIds.length === 0) return;
  await db
    .updateTable('tickets')
    .set({ status: 'void', voided_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('booking_id', 'in', bookingIds)
    .where('status', '=', 'valid')
    .where('scanned_at', 'is', null)
    .execute();
}

/** The heads (0 the attendee, 1, 2, … the guests) of a booking's live tickets. */
export async function liveTicketIndexes(db: Db, schoolId: number, bookingId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('tickets')
    .select('guest_index')
    .where('school_id', '=', schoolId)
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'valid')
    .execute();
  return rows.map((row) => row.guest_index);
}

/**
 * Voids up to `count` of a booking's guest tickets not yet admitted, highest guest number first, each locked
 * as a door's admission would (a door admitting one meanwhile keeps it). Returns how many it voided.
 */
export async function voidUnadmittedGuestTickets(
  db: Db,
  schoolId: number,
  bookingId: number,
  count: number,
): Promise<number> {
  const voided = await db
    .updateTable('tickets')
    .set({ status: 'void', voided_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('tickets')
        .select('id')
        .where('school_id', '=', schoolId)
        .where('booking_id', '=', bookingId)
        .where('status', '=', 'valid')
        .where('guest_index', '>', 0)
        .where('scanned_at', 'is', null)
        .orderBy('guest_index', 'desc')
        .limit(count)
        .forUpdate(),
    )
    .where('status', '=', 'valid')
    .where('scanned_at', 'is', null)
    .returning('id')
    .execute();
  return voided.length;
}

/** A ticket with everything its answer shows: the attendee, the event, who scanned it, when and where. */
function ticketSelect(db: Db, schoolId: number) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('events as e', 'e.id', 't.event_id')
    .innerJoin('event_types as et', 'et.id', 'e.event_type_id')
    .innerJoin('schools as sc', 'sc.id', 't.school_id')
    .innerJoin('bookings as b', 'b.id', 't.booking_id')
    .leftJoin('slots as sl', 'sl.id', 'b.slot_id')
    .leftJoin('sections as s', 's.id', 'sl.section_id')
    .leftJoin('users as sb', 'sb.id', 't.scanned_by')
    .select([
      't.id',
      't.code',
      't.event_id',
      't.user_id',
      't.guest_index',
      't.status',
      't.scanned_at',
      't.scanned_by',
      'u.first_name',
      'u.last_name',
      'u.email',
      'e.name as event_name',
      'et.group_int',
      'sc.timezone',
      'b.starts_at',
      's.location',
      sql<
        string | null
      >`nullif(trim(coalesce(sb.first_name, '') || ' ' || coalesce(sb.last_name, '')), '')`.as(
        'scanned_by_name',
      ),
    ])
    .where('t.school_id', '=', schoolId);
}

/**
 * The scanning window of the event `e` (its school and id as the query names them): hours before its first
 * section starts to hours after its last one ends; null without sections (migration 024).
 */
const scanWindow = (school: RawBuilder<unknown>, event: RawBuilder<unknown>) =>
  [
    sql<Date | null>`(select min(ws.starts_at) from sections ws where ws.school_id = ${school} and ws.event_id = ${event}) - make_interval(hours => e.scan_opens_hours_before)`.as(
      'scan_opens_at',
    ),
    sql<Date | null>`(select max(ws.ends_at) from sections ws where ws.school_id = ${school} and ws.event_id = ${event}) + make_interval(hours => e.scan_closes_hours_after)`.as(
      'scan_closes_at',
    ),
  ] as const;

export type TicketRow = Awaited<ReturnType<ReturnType<typeof ticketSelect>['execute']>>[number];

/**
 * A ticket as a door reads it: with whether this user scans its event, its event's scanning window
 * (hours before the first section to hours after the last; null without sections: migration 024) and the
 * database's time, which the window is judged by.
 */
function doorRead(db: Db, schoolId: number, userId: number) {
  return ticketSelect(db, schoolId).select([
    sql<boolean>`exists (select 1 from event_scanners es where es.event_id = t.event_id and es.user_id = ${userId})`.as(
      'i_scan',
    ),
    ...scanWindow(sql`t.school_id`, sql`t.event_id`),
    sql<Date>`now()`.as('checked_at'),
  ]);
}

export type DoorRow = Awaited<ReturnType<ReturnType<typeof doorRead>['execute']>>[number];

/** The ticket a door presents by its code (the door's one read; compiled once). */
export async function ticketAtDoor(db: Db, schoolId: number, code: string, userId: number) {
  return (await ticketAtDoorQuery(db, schoolId, code, userId))[0];
}

const ticketAtDoorQuery = compiledOnce(
  (db: Db, schoolId: number, code: string, userId: number) =>
    doorRead(db, schoolId, userId).where('t.code', '=', code),
  [-987_001, '\u0000code', -987_002],
);

/** The ticket a manual check-in names by its id (from the door's search, which never shows a code). */
export async function ticketAtDoorById(db: Db, schoolId: number, ticketId: number, userId: number) {
  return (await ticketAtDoorByIdQuery(db, schoolId, ticketId, userId))[0];
}

const ticketAtDoorByIdQuery = compiledOnce(
  (db: Db, schoolId: number, ticketId: number, userId: number) =>
    doorRead(db, schoolId, userId).where('t.id', '=', ticketId),
  [-987_001, -987_003, -987_002],
);

/** The live tickets a person holds for an event: their own first, then their guests'. */
export function ticketsOfHolder(db: Db, schoolId: number, eventId: number, userId: number) {
  return ticketSelect(db, schoolId)
    .where('t.event_id', '=', eventId)
    .where('t.user_id', '=', userId)
    .where('t.status', '=', 'valid')
    .orderBy('b.starts_at')
    .orderBy('t.guest_index')
    .execute();
}

/**
 * The event a ticket call names, with its group (only groups 2 and 3 issue tickets), the school's zone its
 * times are shown in and its scanning window (as doorRead reckons it), which an offline door carries.
 */
export function ticketEvent(db: Db, schoolId: number, eventId: number) {
  return db
    .selectFrom('events as e')
    .innerJoin('event_types as et', 'et.id', 'e.event_type_id')
    .innerJoin('schools as sc', 'sc.id', 'e.school_id')
    .select(['e.id', 'e.name', 'et.group_int', 'sc.timezone', ...scanWindow(sql`e.school_id`, sql`e.id`)])
    .where('e.school_id', '=', schoolId)
    .where('e.id', '=', eventId)
    .executeTakeFirst();
}

export async function isScanner(db: Db, schoolId: number, eventId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('event_scanners')
    .select('user_id')
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isParentOf(db: Db, schoolId: number, parentId: number, studentId: number) {
  const row = await db
    .selectFrom('parent_students')
    .select('student_id')
    .where('school_id', '=', schoolId)
    .where('parent_id', '=', parentId)
    .where('student_id', '=', studentId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Admits a ticket: scanned only if it is live and not yet scanned. The one statement that decides, so two
 * doors presenting the same ticket at the same instant admit it once. Undefined when it did not admit.
 */
export async function admitTicket(
  db: Db,
  schoolId: number,
  ticketId: number,
  input: { by: number; device: string | null },
) {
  return (await admitQuery(db, schoolId, ticketId, input.by, input.device))[0];
}

const admitQuery = compiledOnce(
  (db: Db, schoolId: number, ticketId: number, by: number, device: string | null) =>
    db
      .updateTable('tickets')
      .set({ scanned_at: sql`now()`, scanned_by: by, scanned_device: device })
      .where('school_id', '=', schoolId)
      .where('id', '=', ticketId)
      .where('status', '=', 'valid')
      .where('scanned_at', 'is', null)
      .returning([
        'scanned_at',
        sql<
          string | null
        >`(select nullif(trim(u.first_name || ' ' || u.last_name), '') from users u where u.id = ${by})`.as(
          'scanned_by_name',
        ),
      ]),
  [-987_001, -987_002, -987_003, '\u0000device'],
);

/** An admin's undo at the door: only a scanned ticket, once. */
export function unadmitTicket(db: Db, schoolId: number, ticketId: number) {
  return db
    .updateTable('tickets')
    .set({ scanned_at: null, scanned_by: null, scanned_device: null })
    .where('school_id', '=', schoolId)
    .where('id', '=', ticketId)
    .where('scanned_at', 'is not', null)
    .returning('id')
    .executeTakeFirst();
}

/**
 * Records a scan with its answer. With a client nonce it is also the retry guard: a second insert of the
 * same nonce waits for the first transaction and then inserts nothing (undefined).
 */
type ScanRow = {
  school_id: number;
  event_id: number;
  ticket_id: number;
  action: 'admit' | 'refused' | 'undo' | 'duplicate';
  by_user: number;
  device_id: string | null;
  client_nonce: string | null;
  device_time: Date | null;
  answer: string | null;
};

export async function recordScan(db: Db, row: ScanRow) {
  return (
    await recordScanQuery(
      db,
      row.school_id,
      row.event_id,
      row.ticket_id,
      row.action,
      row.by_user,
      row.device_id,
      row.client_nonce,
      row.device_time,
      row.answer,
    )
  )[0];
}

const recordScanQuery = compiledOnce(
  (
    db: Db,
    school_id: number,
    event_id: number,
    ticket_id: number,
    action: ScanRow['action'],
    by_user: number,
    device_id: string | null,
    client_nonce: string | null,
    device_time: Date | null,
    answer: string | null,
  ) =>
    db
      .insertInto('ticket_scans')
      .values({
        school_id,
        event_id,
        ticket_id,
        action,
        by_user,
        device_id,
        client_nonce,
        device_time,
        answer,
      })
      .onConflict((oc) =>
        oc.columns(['by_user', 'client_nonce']).where('client_nonce', 'is not', null).doNothing(),
      )
      .returning('id'),
  [
    -987_001,
    -987_002,
    -987_003,
    '\u0000action' as ScanRow['action'],
    -987_004,
    '\u0000device',
    '\u0000nonce',
    new Date(-987_005),
    '\u0000answer',
  ],
);

/** The answer first given to this scanner's nonce, once its transaction has committed. */
export async function scanAnswer(db: Db, schoolId: number, userId: number, nonce: string) {
  const row = await db
    .selectFrom('ticket_scans')
    .select('answer')
    .where('school_id', '=', schoolId)
    .where('by_user', '=', userId)
    .where('client_nonce', '=', nonce)
    .executeTakeFirst();
  return row?.answer ?? undefined;
}

/**
 * The door's count: live tickets expected, people admitted, those still to come, guests among them. An
 * admission counts whatever happens to the booking after it (the people are in): the count moves only by
 * scans and undos (issue 34).
 */
export async function doorCounts(db: Db, schoolId: number, eventId: number) {
  const row = await db
    .selectFrom('tickets')
    .select([
      sql<number>`count(*) filter (where status = 'valid')::int`.as('expected'),
      sql<number>`count(scanned_at)::int`.as('admitted'),
      sql<number>`count(*) filter (where status = 'valid' and scanned_at is null)::int`.as('to_come'),
      sql<number>`count(*) filter (where status = 'valid' and guest_index > 0)::int`.as('guests_expected'),
      sql<number>`count(scanned_at) filter (where guest_index > 0)::int`.as('guests_admitted'),
    ])
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return row;
}

export function recentAdmissions(db: Db, schoolId: number, eventId: number, limit: number) {
  return ticketSelect(db, schoolId)
    .where('t.event_id', '=', eventId)
    .where('t.status', '=', 'valid')
    .where('t.scanned_at', 'is not', null)
    .orderBy('t.scanned_at', 'desc')
    .limit(limit)
    .execute();
}

/** Live tickets of the event whose attendee's name contains q (a manual check-in; never by email: issue 35). */
export function searchTickets(db: Db, schoolId: number, eventId: number, q: string, limit: number) {
  const like = `%${likeLiteral(q)}%`;
  return ticketSelect(db, schoolId)
    .where('t.event_id', '=', eventId)
    .where('t.status', '=', 'valid')
    .where(sql`u.first_name || ' ' || u.last_name`, 'ilike', like)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('t.guest_index')
    .limit(limit)
    .execute();
}

/** Live bookings of the event (those of these attendees, when given): what tickets are issued for. */
export function liveBookings(db: Db, schoolId: number, eventId: number, attendeeIds: number[]) {
  let query = db
    .selectFrom('bookings')
    .select(['id', 'parent_id', 'student_id', 'guests'])
    .where('school_id', '=', schoolId)
    .where('event_id', '=', eventId)
    .where('status', '=', 'booked');
  if (attendeeIds.length > 0)
    query = query.where(sql<number>`coalesce(student_id, parent_id)`, 'in', attendeeIds);
  return query.orderBy('id').execute();
}

/** Every live ticket of the event, for a door's offline list (hashed by the service). */
export function eventTicketList(db: Db, schoolId: number, eventId: number) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.code', 't.guest_index', 't.scanned_at', 'u.first_name', 'u.last_name'])
    .where('t.school_id', '=', schoolId)
    .where('t.event_id', '=', eventId)
    .where('t.status', '=', 'valid')
    .orderBy('t.id')
    .execute();
}

/** Offline admissions that came second: the people a door let in twice. */
export function duplicateScans(db: Db, schoolId: number, eventId: number, limit: number) {
  return ticketSelect(db, schoolId)
    .innerJoin('ticket_scans as ts', 'ts.ticket_id', 't.id')
    .leftJoin('users as by', 'by.id', 'ts.by_user')
    .select([
      'ts.device_id',
      'ts.device_time',
      'ts.created_at as received_at',
      sql<
        string | null
      >`nullif(trim(coalesce(by.first_name, '') || ' ' || coalesce(by.last_name, '')), '')`.as('by_name'),
    ])
    .where('ts.school_id', '=', schoolId)
    .where('ts.event_id', '=', eventId)
    .where('ts.action', '=', 'duplicate')
    .orderBy('ts.created_at', 'desc')
    .limit(limit)
    .execute();
}
