import { type Kysely, sql } from 'kysely';

// Issue 41, video appointments: whether a family is waiting in its call is read from the call's own rows
// (its last "joined" or "left"), for the teacher's "next" line; this index finds a booking's rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX call_signals_booking ON call_signals (booking_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX call_signals_booking`.execute(db);
}
