import type { Db } from './database';

/**
 * One `T` per database handle, made at its first use: what a process keeps about a database (its kept
 * sessions, its full-slot hints) belongs to that handle, and tests open several in one process.
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    const kept = made.get(db);
    if (kept !== undefined) return kept;
    const value = make(db);
    made.set(db, value);
    return value;
  };
}
