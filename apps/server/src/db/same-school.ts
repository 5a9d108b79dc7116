import { sql } from 'kysely';

/**
 * The id when its row (a user, an event) is the school's, else null: written into a NOT NULL column of a
 * new row it makes a foreign id fail the insert, as a composite `(id, school_id)` foreign key would where
 * the table has none (user_roles, auth_tokens, load_test_runs). One subquery by primary key.
 */
export function idInSchool(table: 'users' | 'events', id: number, schoolId: number) {
  return sql<number>`(select t.id from ${sql.table(table)} t where t.id = ${id} and t.school_id = ${schoolId})`;
}
