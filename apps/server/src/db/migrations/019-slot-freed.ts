import { type Kysely, sql } from 'kysely';

// Each process remembers which slots it last saw full (modules/booking/full-slot-hints.ts, decision 009): a
// booking of such a slot starts with the read that answers a lost race. A slot that may have room again
// (places given back, capacity raised) is announced on the channel parley_slots, whichever code path or
// process makes the change, so no process keeps sending its bookings the long way. Sent at commit.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION parley_slot_freed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('parley_slots', NEW.id::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER slots_freed AFTER UPDATE ON slots FOR EACH ROW
    WHEN (NEW.booked_count < OLD.booked_count OR NEW.capacity > OLD.capacity)
    EXECUTE FUNCTION parley_slot_freed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER slots_freed ON slots`.execute(db);
  await sql`DROP FUNCTION parley_slot_freed()`.execute(db);
}
