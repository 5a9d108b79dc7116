import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
} from 'kysely';

/**
 * Row-level security's side in the app (decision 016). Every table that holds a school's rows has a policy
 * (migration 009) that shows the role `parley_app` only the rows of the school named by the setting
 * `parley.school`. Which school that is comes from the work in hand, not from each query:
 *
 * - school: a signed-in request (or a family's personal link) once its caller is known — every query it
 *   runs sees that school alone, so a query that forgets its `school_id` filter finds nothing foreign;
 * - system: work that is not one school's by nature (sign-in and sign-up before a school is known, a
 *   booking page found by its code, the mail worker, start-up) — still as `parley_app`, seeing all schools;
 * - owner: migrations, as the role that owns the tables.
 *
 * The scope rides on AsyncLocalStorage, and each pooled connection is switched only when the scope it last
 * ran under differs: a server busy with one school sends no extra statement at all.
 */
export type Scope =
  | { kind: 'owner' }
  | { kind: 'system' }
  | { kind: 'school'; schoolId: number }
  /** Any scope of the app's role will do: for the SECURITY DEFINER lookups that read across schools. */
  | { kind: 'app' };

export const APP_ROLE = 'parley_app';
const OWNER: Scope = { kind: 'owner' };
const SYSTEM = { kind: 'system' } as const;

// A holder rather than the scope itself, so a request's hook can narrow it once the caller is known and
// everything the request goes on to run (its handler, its background work) sees the narrowed scope.
type Holder = { scope: Scope };
const storage = new AsyncLocalStorage<Holder>();

/** The scope queries run under here; outside any (start-up, scripts, tests' own setup) it is system. */
export function currentScope(): Scope {
  return storage.getStore()?.scope ?? SYSTEM;
}

export function inScope<T>(scope: Scope, work: () => T): T {
  return storage.run({ scope }, work);
}

export const asOwner = <T>(work: () => T): T => inScope(OWNER, work);
export const asSystem = <T>(work: () => T): T => inScope(SYSTEM, work);
export const asSchool = <T>(schoolId: number, work: () => T): T =>
  inScope({ kind: 'school', schoolId }, work);
/** On whichever connection is at hand as the app's role, whatever school it last served: no switch. */
export const asAnyApp = <T>(work: () => T): T => inScope({ kind: 'app' }, work);

/** Runs a request (from its first hook on) in a system scope that its authentication may then narrow. */
export function enterRequest(next: () => void): void {
  storage.run({ scope: SYSTEM }, next);
}

/** Narrows the request in hand to its caller's school: from here on it sees that school's rows only. */
export function narrowToSchool(schoolId: number): void {
  const holder = storage.getStore();
  if (!holder) throw new Error('narrowToSchool outside a request scope');
  holder.scope = { kind: 'school', schoolId };
}

const keyOf = (scope: Exclude<Scope, { kind: 'app' }>): string =>
  scope.kind === 'school' ? String(scope.schoolId) : scope.kind;

/** The one statement that moves a connection into a scope (the role and the school together). */
function switchTo(scope: Exclude<Scope, { kind: 'app' }>): CompiledQuery {
  if (scope.kind === 'owner') return CompiledQuery.raw(`select set_config('role', 'none', false)`);
  return CompiledQuery.raw(
    `select set_config('role', '${APP_ROLE}', false), set_config('parley.school', $1, false)`,
    [scope.kind === 'system' ? 'all' : String(scope.schoolId)],
  );
}

/** Connections handed out and not yet released (for the pool gauges of an embedded database). */
export type Checkouts = { held: number };

/** Wraps a driver so every connection it hands out runs under the current scope. */
function scopedDriver(inner: Driver, checkouts: Checkouts): Driver {
  // What each connection last ran under; a new connection has run under nothing (no role, no school).
  const applied = new WeakMap<DatabaseConnection, string>();
  return {
    init: (options) => inner.init(options),
    async acquireConnection(options) {
      const connection = await inner.acquireConnection(options);
      checkouts.held += 1;
      const scope = currentScope();
      const last = applied.get(connection);
      // 'app' takes the connection as it is when it already works as the app's role; else the system scope.
      const target = scope.kind === 'app' ? SYSTEM : scope;
      const settled = scope.kind === 'app' ? last !== undefined && last !== 'owner' : last === keyOf(target);
      if (!settled) {
        try {
          await connection.executeQuery(switchTo(target));
        } catch (error) {
          applied.delete(connection);
          checkouts.held -= 1;
          await inner.releaseConnection(connection);
          throw error;
        }
        applied.set(connection, keyOf(target));
      }
      return connection;
    },
    beginTransaction: (connection, settings) => inner.beginTransaction(connection, settings),
    commitTransaction: (connection) => inner.commitTransaction(connection),
    rollbackTransaction: (connection) => inner.rollbackTransaction(connection),
    savepoint: (connection, name, compile) =>
      required(inner.savepoint).call(inner, connection, name, compile),
    rollbackToSavepoint: (connection, name, compile) =>
      required(inner.rollbackToSavepoint).call(inner, connection, name, compile),
    releaseSavepoint: (connection, name, compile) =>
      required(inner.releaseSavepoint).call(inner, connection, name, compile),
    releaseConnection: (connection, options) => {
      checkouts.held -= 1;
      return inner.releaseConnection(connection, options);
    },
    destroy: (options) => inner.destroy(options),
  };
}

// Both dialects Parley uses (pg and PGlite) have savepoints.
function required<T>(method: T | undefined): T {
  if (!method) throw new Error('this database driver has no savepoints');
  return method;
}

/** The same dialect, its connections kept in the caller's scope. */
export function scopedDialect(inner: Dialect, checkouts: Checkouts = { held: 0 }): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => scopedDriver(inner.createDriver(), checkouts),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: (): QueryCompiler => inner.createQueryCompiler(),
  };
}
