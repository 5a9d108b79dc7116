import { type Kysely, sql } from 'kysely';

// Each process keeps what labels an event's slots (modules/booking/slot-labels.ts, decision 009): the
// teacher's name, the times, the section's start, where. A lost race's answer then reads only the places
// left. What may change a label announces the event on the channel parley_slot_labels, whichever code path
// or process makes the change: a slot added, moved or removed, a section or a teacher's table moved, a
// teacher renamed (every event: '0', renames are rare). Places taken or given back never fire these
// triggers (their UPDATE sets none of the columns listed). Sent at commit, once per event and transaction.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION parley_slot_labels_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      r record;
    BEGIN
      IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
      IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('parley_slot_labels', '0');
      ELSIF TG_TABLE_NAME = 'section_teachers' THEN
        PERFORM pg_notify('parley_slot_labels', s.event_id::text) FROM sections s WHERE s.id = r.section_id;
      ELSE
        PERFORM pg_notify('parley_slot_labels', r.event_id::text);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER slots_labels_added AFTER INSERT OR DELETE ON slots FOR EACH ROW
    EXECUTE FUNCTION parley_slot_labels_changed()`.execute(db);
  await sql`CREATE TRIGGER slots_labels_changed
    AFTER UPDATE OF event_id, section_id, teacher_id, starts_at, ends_at, location ON slots FOR EACH ROW
    WHEN ((OLD.event_id, OLD.section_id, OLD.teacher_id, OLD.starts_at, OLD.ends_at, OLD.location)
      IS DISTINCT FROM (NEW.event_id, NEW.section_id, NEW.teacher_id, NEW.starts_at, NEW.ends_at, NEW.location))
    EXECUTE FUNCTION parley_slot_labels_changed()`.execute(db);
  await sql`CREATE TRIGGER sections_labels_changed AFTER UPDATE OF starts_at, location ON sections FOR EACH ROW
    WHEN ((OLD.starts_at, OLD.location) IS DISTINCT FROM (NEW.starts_at, NEW.location))
    EXECUTE FUNCTION parley_slot_labels_changed()`.execute(db);
  await sql`CREATE TRIGGER section_teachers_labels_changed
    AFTER INSERT OR DELETE OR UPDATE OF location ON section_teachers FOR EACH ROW
    EXECUTE FUNCTION parley_slot_labels_changed()`.execute(db);
  await sql`CREATE TRIGGER users_labels_changed AFTER UPDATE OF first_name, last_name ON users FOR EACH ROW
    WHEN ((OLD.first_name, OLD.last_name) IS DISTINCT FROM (NEW.first_name, NEW.last_name))
    EXECUTE FUNCTION parley_slot_labels_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER users_labels_changed ON users`.execute(db);
  await sql`DROP TRIGGER section_teachers_labels_changed ON section_teachers`.execute(db);
  await sql`DROP TRIGGER sections_labels_changed ON sections`.execute(db);
  await sql`DROP TRIGGER slots_labels_changed ON slots`.execute(db);
  await sql`DROP TRIGGER slots_labels_added ON slots`.execute(db);
  await sql`DROP FUNCTION parley_slot_labels_changed()`.execute(db);
}
