import { type Kysely, sql } from 'kysely';

// Issue 41, live timing on the night. A teacher's lateness at an event: one row per teacher and event
// (0 minutes is back on time), written with an announcement on parley_timing carrying the row's id, so
// every process tells its open pages (modules/live/). Each family's "you're next" push once per booking:
// the primary key of next_up_notices decides that across processes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE teacher_timings (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    school_id integer NOT NULL,
    event_id integer NOT NULL,
    teacher_id integer NOT NULL,
    late_minutes integer NOT NULL CHECK (late_minutes BETWEEN 0 AND 120),
    updated_at timestamptz NOT NULL DEFAULT now(),
    updated_by integer,
    UNIQUE (school_id, event_id, teacher_id),
    CONSTRAINT teacher_timings_event_fk FOREIGN KEY (event_id, school_id)
      REFERENCES events (id, school_id) ON DELETE CASCADE,
    CONSTRAINT teacher_timings_teacher_fk FOREIGN KEY (teacher_id, school_id)
      REFERENCES users (id, school_id) ON DELETE CASCADE,
    CONSTRAINT teacher_timings_by_fk FOREIGN KEY (updated_by) REFERENCES users (id) ON DELETE SET NULL
  )`.execute(db);
  await sql`CREATE TABLE next_up_notices (
    booking_id integer PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    school_id integer NOT NULL,
    queued_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  for (const table of ['teacher_timings', 'next_up_notices']) {
    await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY school_wall ON ${sql.table(table)} TO parley_app
      USING (school_id = parley_school() OR parley_all_schools())
      WITH CHECK (school_id = parley_school() OR parley_all_schools())`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE next_up_notices`.execute(db);
  await sql`DROP TABLE teacher_timings`.execute(db);
}
