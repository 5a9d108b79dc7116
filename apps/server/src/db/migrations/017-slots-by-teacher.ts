import { type Kysely, sql } from 'kysely';

// A lost booking race is answered with the columns of the teachers in question (issue 14): their slots in
// the event, found by (event, teacher, start) rather than by reading every slot of the evening and
// filtering (booking.repository.ts, lostRace). The slots' other indexes stay: the whole grid still reads
// the event's slots in time order. A booking updates booked_count only, which no index holds, so taking
// a place costs this index nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX slots_event_teacher_idx ON slots (event_id, teacher_id, starts_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX slots_event_teacher_idx`.execute(db);
}
