import type { EventsTable, SchoolsTable, UsersTable } from './schema';

// Whole rows of the tables read whole on a request's path, as explicit column lists rather than `*`. A
// statement whose result has a `*` goes unnamed, planned on every call (statement-pool.ts): PostgreSQL
// expands the `*` when it prepares a statement, so a migration that adds a column would make a prepared
// one fail in the processes still running the old code during a rolling deploy (decision 009). Listed,
// the columns are fixed in the statement's text: a new column is not read until it is listed here, and
// the compiler refuses a list that misses a column of the table's type.

/** The columns of T that `list` leaves out: never when it names them all. */
type Missing<T, L extends readonly unknown[]> = Exclude<keyof T, L[number]>;
const every =
  <T>() =>
  <const L extends ReadonlyArray<keyof T & string>>(
    list: L & ([Missing<T, L>] extends [never] ? unknown : { missing: Missing<T, L> }),
  ): L =>
    list;

/** Every column of events. */
export const EVENT_COLUMNS = every<EventsTable>()([
  'id',
  'school_id',
  'event_type_id',
  'name',
  'status',
  'code',
  'booking_page_message',
  'opens_at',
  'closes_at',
  'slot_minutes',
  'break_minutes',
  'travel_minutes',
  'capacity',
  'guest_allowance',
  'gown_sizes',
  'max_appointments_per_child',
  'booking_notifications',
  'created_at',
  'updated_at',
  'version',
  'scan_opens_hours_before',
  'scan_closes_hours_after',
  'day_before_reminder',
  'meeting_mode',
]);

/** Every column of users. */
export const USER_COLUMNS = every<UsersTable>()([
  'id',
  'school_id',
  'email',
  'title',
  'first_name',
  'last_name',
  'status',
  'password_hash',
  'email_verified_at',
  'login_count',
  'video_conference_url',
  'device_token',
  'settings',
  'created_at',
  'updated_at',
]);

/** Every column of schools. */
export const SCHOOL_COLUMNS = every<SchoolsTable>()([
  'id',
  'name',
  'timezone',
  'reminder_time',
  'verified_at',
  'address',
  'contact_email',
  'phone',
  'website',
  'created_at',
  'sandbox_of',
]);

/** A list of columns qualified by a table's alias in the query (`e.id`, …). */
export const qualified = <A extends string, C extends string>(alias: A, columns: readonly C[]) =>
  columns.map((column) => `${alias}.${column}` as `${A}.${C}`);
