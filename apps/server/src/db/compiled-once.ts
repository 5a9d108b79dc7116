import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database';

/**
 * A hot query built and compiled once, then run with each call's values (the door's scan, every request's
 * session: building a nine-join select with Kysely costs more than PostgreSQL takes to run it). The
 * builder is called once with `sentinels`, values that appear nowhere else in the query; each parameter
 * that comes out equal to a sentinel takes the matching argument, the others keep their constant. For
 * queries without lists: an `in (…)` would compile to as many parameters as the sentinel's list had.
 */
export function compiledOnce<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
  sentinels: A,
): (db: Db, ...args: A) => Promise<R[]> {
  let compiled: { sql: string; slots: number[]; constants: readonly unknown[] } | undefined;
  return async (db, ...args) => {
    if (!compiled) {
      const query = build(db, ...sentinels).compile();
      const slots = query.parameters.map((value) => sentinels.indexOf(value));
      compiled = { sql: query.sql, slots, constants: query.parameters };
    }
    const { sql, slots, constants } = compiled;
    const values = slots.map((slot, index) => (slot >= 0 ? args[slot] : constants[index]));
    return (await db.executeQuery<R>(CompiledQuery.raw(sql, values))).rows;
  };
}
