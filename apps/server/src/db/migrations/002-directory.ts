import { type Kysely, sql } from 'kysely';

// The school directory: subjects, who teaches what, families, and who teaches each child what.
// Composite foreign keys (id, school_id) make a cross-school link impossible, not just unlikely.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schools').addColumn('address', 'text').execute();
  await db.schema.alterTable('schools').addColumn('contact_email', 'text').execute();
  await db.schema.alterTable('schools').addColumn('phone', 'text').execute();
  await db.schema.alterTable('schools').addColumn('website', 'text').execute();
  await db.schema
    .alterTable('users')
    .addUniqueConstraint('users_id_school_key', ['id', 'school_id'])
    .execute();

  await db.schema
    .createTable('subjects')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('school_id', 'integer', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('subjects_id_school_key', ['id', 'school_id'])
    .execute();
  await sql`CREATE UNIQUE INDEX subjects_school_name_key ON subjects (school_id, lower(name))`.execute(db);

  await db.schema
    .createTable('teacher_subjects')
    .addColumn('school_id', 'integer', (c) => c.notNull())
    .addColumn('teacher_id', 'integer', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('teacher_subjects_pkey', ['teacher_id', 'subject_id'])
    .addForeignKeyConstraint(
      'teacher_subjects_teacher_fk',
      ['teacher_id', 'school_id'],
      'users',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'teacher_subjects_subject_fk',
      ['subject_id', 'school_id'],
      'subjects',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('teacher_subjects_subject_idx')
    .on('teacher_subjects')
    .column('subject_id')
    .execute();

  await db.schema
    .createTable('parent_students')
    .addColumn('school_id', 'integer', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull())
    .addColumn('student_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('parent_students_pkey', ['parent_id', 'student_id'])
    .addForeignKeyConstraint(
      'parent_students_parent_fk',
      ['parent_id', 'school_id'],
      'users',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'parent_students_student_fk',
      ['student_id', 'school_id'],
      'users',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addCheckConstraint('parent_students_distinct', sql`parent_id <> student_id`)
    .execute();
  await db.schema
    .createIndex('parent_students_student_idx')
    .on('parent_students')
    .column('student_id')
    .execute();

  // A child studies a subject with a given teacher: what a parent is offered at a meeting evening.
  await db.schema
    .createTable('student_subjects')
    .addColumn('school_id', 'integer', (c) => c.notNull())
    .addColumn('student_id', 'integer', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('teacher_id', 'integer')
    .addPrimaryKeyConstraint('student_subjects_pkey', ['student_id', 'subject_id'])
    .addForeignKeyConstraint(
      'student_subjects_student_fk',
      ['student_id', 'school_id'],
      'users',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'student_subjects_subject_fk',
      ['subject_id', 'school_id'],
      'subjects',
      ['id', 'school_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint('student_subjects_teacher_fk', ['teacher_id', 'school_id'], 'users', [
      'id',
      'school_id',
    ])
    .execute();
  await db.schema
    .createIndex('student_subjects_teacher_idx')
    .on('student_subjects')
    .column('teacher_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['student_subjects', 'parent_students', 'teacher_subjects', 'subjects']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('users').dropConstraint('users_id_school_key').execute();
  for (const column of ['address', 'contact_email', 'phone', 'website']) {
    await db.schema.alterTable('schools').dropColumn(column).execute();
  }
}
