import { type Kysely, sql } from 'kysely';

// Events (issue 4): types per school, events, their sections (a date with local start and end), the
// teachers of a parent-teacher section, generated slots, bookings (filled by the booking issue),
// recipients and scanners. Every row carries school_id and every link is a composite (id, school_id)
// foreign key, so a row of one school can never point at another school's row.
// Frozen once released: later changes go in a new migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_types')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('school_id', 'integer', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // 1 parent-teacher, 2 ticketed, 3 ceremony (ticketed, guests and gowns), 4 general booking.
    .addColumn('group_int', 'smallint', (c) => c.notNull().check(sql`group_int between 1 and 4`))
    .addColumn('sort_order', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('event_types_school_name_key', ['school_id', 'name'])
    .addUniqueConstraint('event_types_id_school_key', ['id', 'school_id'])
    .execute();

  // The types every school starts with; new schools get them at signup (event-types repository).
  await sql`
    INSERT INTO event_types (school_id, name, group_int, sort_order)
    SELECT s.id, t.name, t.group_int, t.sort_order
    FROM schools s
    CROSS JOIN (VALUES ('Parent teacher', 1, 1), ('Booking event', 4, 2), ('Ticketed event', 2, 3),
                       ('Graduation', 3, 4)) AS t(name, group_int, sort_order)
    ON CONFLICT DO NOTHING`.execute(db);

  await db.schema
    .createTable('events')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('school_id', 'integer', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('event_type_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 60`))
    .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1).check(sql`status in (0, 1)`))
    // The public booking code (/book/event/{code}): random, never derived from the id.
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('booking_page_message', 'text')
    .addColumn('opens_at', 'timestamptz')
    .addColumn('closes_at', 'timestamptz')
    .addColumn('slot_minutes', 'integer', (c) =>
      c.notNull().defaultTo(10).check(sql`slot_minutes between 1 and 240`),
    )
    .addColumn('break_minutes', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`break_minutes between 0 and 120`),
    )
    .addColumn('travel_minutes', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`travel_minutes between 0 and 120`),
    )
    .addColumn('capacity', 'integer', (c) =>
      c.notNull().defaultTo(1).check(sql`capacity between 1 and 10000`),
    )
    .addColumn('guest_allowance', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`guest_allowance between 0 and 20`),
    )
    .addColumn('gown_sizes', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('max_appointments_per_child', 'integer', (c) =>
      c.check(sql`max_appointments_per_child between 1 and 50`),
    )
    .addColumn('booking_notifications', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('events_id_school_key', ['id', 'school_id'])
    .addForeignKeyConstraint('events_type_fk', ['event_type_id', 'school_id'], 'event_types', [
      'id',
      'school_id',
    ])
    .addCheckConstraint(
      'events_booking_window',
      sql`opens_at is null or closes_at is null or opens_at < closes_at`,
    )
    .execute();
  await db.schema.createIndex('events_school_idx').on('events').columns(['school_id', 'name']).execute();

  await db.schema
    .createTable('sections')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('school_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'integer', (c) => c.notNull())
    // What the admin typed, in the school's zone; starts_at/ends_at are the instants they meant.
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('start_time', 'text', (c) => c.notNull().check(sql`start_time ~ '^[0-2][0-9]:[0-5][0-9]$'`))
    .addColumn('end_time', 'text', (c) => c.notNull().check(sql`end_time ~ '^[0-2][0-9]:[0-5][0-9]$'`))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('location', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sections_id_school_key', ['id', 'school_id'])
    .addUniqueConstraint('sections_id_event_key', ['id', 'event_id'])
    .addForeignKeyConstraint(
      'sections_event_fk',
      ['event_id', 'school_id'],
      'events',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addCheckConstraint('sections_order', sql`starts_at < ends_at`)
    .execute();
  await db.schema
    .createIndex('sections_event_idx')
    .on('sections')
    .columns(['event_id', 'starts_at'])
    .execute();

  await db.schema
    .createTable('section_teachers')
    .addColumn('school_id', 'integer', (c) => c.notNull())
    .addColumn('section_id', 'integer', (c) => c.notNull())
    .addColumn('teacher_id', 'integer', (c) => c.notNull())
    .addColumn('location', 'text')
    // Local [{ start: 'HH:MM', end: 'HH:MM' }] when the teacher takes no appointments (breaks, a meeting).
    .addColumn('unavailable', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addPrimaryKeyConstraint('section_teachers_pkey', ['section_id', 'teacher_id'])
    .addForeignKeyConstraint(
      'section_teachers_section_fk',
      ['section_id', 'school_id'],
      'sections',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'section_teachers_teacher_fk',
      ['teacher_id', 'school_id'],
      'users',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('section_teachers_teacher_idx')
    .on('section_teachers')
    .column('teacher_id')
    .execute();

  await db.schema
    .createTable('slots')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('school_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('section_id', 'integer', (c) => c.notNull())
    .addColumn('teacher_id', 'integer')
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) =>
      c.notNull().defaultTo(1).check(sql`capacity between 1 and 10000`),
    )
    .addColumn('booked_count', 'integer', (c) => c.notNull().defaultTo(0))
    // An override set by the admin; null means the teacher's (or else the section's) location.
    .addColumn('location', 'text')
    .addUniqueConstraint('slots_id_school_key', ['id', 'school_id'])
    .addForeignKeyConstraint(
      'slots_event_fk',
      ['event_id', 'school_id'],
      'events',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    // The slot's section belongs to the slot's event.
    .addForeignKeyConstraint(
      'slots_section_fk',
      ['section_id', 'event_id'],
      'sections',
      ['id', 'event_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'slots_section_school_fk',
      ['section_id', 'school_id'],
      'sections',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'slots_teacher_fk',
      ['teacher_id', 'school_id'],
      'users',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addCheckConstraint('slots_booked_count', sql`booked_count between 0 and capacity`)
    .addCheckConstraint('slots_order', sql`starts_at < ends_at`)
    .execute();
  // One slot per teacher and start in a section; a section's teacher-less slots count as teacher 0.
  await sql`CREATE UNIQUE INDEX slots_section_teacher_start_key
    ON slots (section_id, coalesce(teacher_id, 0), starts_at)`.execute(db);
  await db.schema.createIndex('slots_event_idx').on('slots').columns(['event_id', 'starts_at']).execute();
  await db.schema.createIndex('slots_teacher_idx').on('slots').columns(['teacher_id', 'starts_at']).execute();

  await db.schema
    .createTable('bookings')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('school_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'integer', (c) => c.notNull())
    // Null once the slot is gone (a section change the admin confirmed): the booking stays, cancelled.
    .addColumn('slot_id', 'integer')
    .addColumn('teacher_id', 'integer')
    // The slot's times when booked, so a cancelled booking still says when it was.
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('parent_id', 'integer')
    .addColumn('student_id', 'integer')
    .addColumn('subject_id', 'integer')
    .addColumn('guests', 'integer', (c) => c.notNull().defaultTo(0).check(sql`guests between 0 and 20`))
    .addColumn('gown_size', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('booked').check(sql`status in ('booked', 'cancelled')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('cancelled_at', 'timestamptz')
    .addUniqueConstraint('bookings_id_school_key', ['id', 'school_id'])
    .addForeignKeyConstraint(
      'bookings_event_fk',
      ['event_id', 'school_id'],
      'events',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    // No cascade: a family's bookings are the school's records; a person with bookings is deactivated.
    .addForeignKeyConstraint('bookings_parent_fk', ['parent_id', 'school_id'], 'users', ['id', 'school_id'])
    // No cascade: a family's bookings are the school's records; a person with bookings is deactivated.
    .addForeignKeyConstraint('bookings_student_fk', ['student_id', 'school_id'], 'users', ['id', 'school_id'])
    .addCheckConstraint('bookings_someone', sql`parent_id is not null or student_id is not null`)
    .addCheckConstraint('bookings_cancelled_at', sql`(status = 'cancelled') = (cancelled_at is not null)`)
    .execute();
  // ON DELETE SET NULL of one column of a composite key (PostgreSQL 15+): school_id stays.
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_slot_fk FOREIGN KEY (slot_id, school_id)
    REFERENCES slots (id, school_id) ON DELETE SET NULL (slot_id)`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_teacher_fk FOREIGN KEY (teacher_id, school_id)
    REFERENCES users (id, school_id) ON DELETE SET NULL (teacher_id)`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_subject_fk FOREIGN KEY (subject_id, school_id)
    REFERENCES subjects (id, school_id) ON DELETE SET NULL (subject_id)`.execute(db);
  await sql`CREATE INDEX bookings_event_live_idx ON bookings (event_id) WHERE status = 'booked'`.execute(db);
  await db.schema.createIndex('bookings_slot_idx').on('bookings').column('slot_id').execute();
  await db.schema.createIndex('bookings_parent_idx').on('bookings').column('parent_id').execute();
  await db.schema.createIndex('bookings_student_idx').on('bookings').column('student_id').execute();

  for (const table of ['event_recipients', 'event_scanners'] as const) {
    await db.schema
      .createTable(table)
      .addColumn('school_id', 'integer', (c) => c.notNull())
      .addColumn('event_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint(`${table}_pkey`, ['event_id', 'user_id'])
      .addForeignKeyConstraint(
        `${table}_event_fk`,
        ['event_id', 'school_id'],
        'events',
        ['id', 'school_id'],
        (c) => c.onDelete('cascade'),
      )
      .addForeignKeyConstraint(
        `${table}_user_fk`,
        ['user_id', 'school_id'],
        'users',
        ['id', 'school_id'],
        (c) => c.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex(`${table}_user_idx`).on(table).column('user_id').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'event_scanners',
    'event_recipients',
    'bookings',
    'slots',
    'section_teachers',
    'sections',
    'events',
    'event_types',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
