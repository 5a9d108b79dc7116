import { type Kysely, sql } from 'kysely';

// Each process keeps what a booking reads about its event (modules/booking/event-contexts.ts, decision
// 009): the event's row with its type, its school's name and zone, when its last section ends, and its
// recipient list. The event's version moves on with every change to any of them, whichever code path or
// process makes it, so the booking's locking read, which reads the version under the event's lock, knows
// whether what its process keeps is current. The bump is an UPDATE of the event's row: a change waits for
// the bookings running (they hold the row FOR SHARE), as a section edit already did (decision 008).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events ADD COLUMN version integer NOT NULL DEFAULT 0`.execute(db);
  await sql`CREATE FUNCTION parley_event_version_next() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.version := OLD.version + 1;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER events_version_next BEFORE UPDATE ON events FOR EACH ROW
    EXECUTE FUNCTION parley_event_version_next()`.execute(db);

  // Sections (when the last ends) and recipients, once per statement and event: `added` and `gone` are
  // the statement's rows (transition tables).
  await sql`CREATE FUNCTION parley_event_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE events SET version = version + 1 WHERE id IN (SELECT event_id FROM added);
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE events SET version = version + 1 WHERE id IN (SELECT event_id FROM gone);
      ELSE
        UPDATE events SET version = version + 1
        WHERE id IN (SELECT event_id FROM added UNION SELECT event_id FROM gone);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  for (const table of ['sections', 'event_recipients']) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_version_added`)} AFTER INSERT ON ${sql.table(table)}
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION parley_event_rows_changed()`.execute(
      db,
    );
    await sql`CREATE TRIGGER ${sql.id(`${table}_version_gone`)} AFTER DELETE ON ${sql.table(table)}
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION parley_event_rows_changed()`.execute(
      db,
    );
    await sql`CREATE TRIGGER ${sql.id(`${table}_version_changed`)} AFTER UPDATE ON ${sql.table(table)}
      REFERENCING OLD TABLE AS gone NEW TABLE AS added FOR EACH STATEMENT
      EXECUTE FUNCTION parley_event_rows_changed()`.execute(db);
  }

  // A school's name or zone, an event type's name or group: every event of theirs (both are rare).
  await sql`CREATE FUNCTION parley_event_owner_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'schools' THEN
        UPDATE events SET version = version + 1 WHERE school_id = NEW.id;
      ELSE
        UPDATE events SET version = version + 1 WHERE school_id = NEW.school_id AND event_type_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER schools_version_changed AFTER UPDATE OF name, timezone ON schools FOR EACH ROW
    WHEN ((OLD.name, OLD.timezone) IS DISTINCT FROM (NEW.name, NEW.timezone))
    EXECUTE FUNCTION parley_event_owner_changed()`.execute(db);
  await sql`CREATE TRIGGER event_types_version_changed AFTER UPDATE OF name, group_int ON event_types
    FOR EACH ROW WHEN ((OLD.name, OLD.group_int) IS DISTINCT FROM (NEW.name, NEW.group_int))
    EXECUTE FUNCTION parley_event_owner_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER event_types_version_changed ON event_types`.execute(db);
  await sql`DROP TRIGGER schools_version_changed ON schools`.execute(db);
  await sql`DROP FUNCTION parley_event_owner_changed()`.execute(db);
  for (const table of ['sections', 'event_recipients'])
    for (const what of ['added', 'gone', 'changed'])
      await sql`DROP TRIGGER ${sql.id(`${table}_version_${what}`)} ON ${sql.table(table)}`.execute(db);
  await sql`DROP FUNCTION parley_event_rows_changed()`.execute(db);
  await sql`DROP TRIGGER events_version_next ON events`.execute(db);
  await sql`DROP FUNCTION parley_event_version_next()`.execute(db);
  await sql`ALTER TABLE events DROP COLUMN version`.execute(db);
}
