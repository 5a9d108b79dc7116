import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';

// Kysely's PostgreSQL dialect takes any pool that offers its public PostgresPool interface (connect, end,
// options). This one hands it pg's pooled clients behind a wrapper whose query() sends each data statement
// as a named prepared statement, through pg's documented `client.query({ name, text, values })`, and every
// other statement (BEGIN, COMMIT, SET, LISTEN) as it came. Nothing of pg is replaced or reached into: the
// wrapper is the seam, and a caller that wants to see each statement (the benches count them, a test
// records them) passes a hook (decision 009).

/** Distinct statement texts given a name, per process: past it, statements go unnamed. */
export const PREPARED_MAX = 2000;

/** A statement that reads or writes rows (what is worth planning once); the others go unnamed. */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Whether a statement's own result columns may include a `*` (`select *`, `e.*`, `returning *`): a `*`
 * outside every parenthesis, string, quoted name and comment. PostgreSQL expands it when the statement is
 * prepared, so a named statement prepared before a migration added a column fails afterwards with "cached
 * plan must not change result type" (0A000) on every connection that prepared it: a rolling deploy's old
 * processes would fail. Such a statement goes unnamed (parsed and planned on each call, like any statement
 * here past PREPARED_MAX). A `*` inside parentheses (a subquery, a CTE, `count(*)`) does not decide the
 * result's columns. Errs on the safe side: a multiplication outside parentheses also counts.
 */
export function resultMayHaveStar(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const next = text[i + 1];
    if (char === "'" || char === '"') {
      // A quoted string or name; a doubled quote inside it is the quote itself.
      let end = text.indexOf(char, i + 1);
      while (end >= 0 && text[end + 1] === char) end = text.indexOf(char, end + 2);
      if (end < 0) return true;
      i = end;
      continue;
    }
    if (char === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return true;
      i = end + 1;
      continue;
    }
    if (char === '$' && !/[0-9]/.test(next ?? '0') && !/\w/.test(text[i - 1] ?? ' ')) {
      // A dollar-quoted string ($$…$$, $tag$…$tag$); a $ before a digit is a parameter ($1), one inside a
      // name is part of it.
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i))?.[0];
      if (tag) {
        const end = text.indexOf(tag, i + tag.length);
        if (end < 0) return true;
        i = end + tag.length - 1;
        continue;
      }
    }
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === '*' && depth === 0) return true;
  }
  return depth !== 0;
}

// Text → name (or null: not named), for at most PREPARED_MAX texts.
const names = new Map<string, string | null>();

/** The name a statement is prepared under, or undefined when it goes unnamed. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= PREPARED_MAX) return undefined;
    name =
      DATA_STATEMENT.test(text) && !resultMayHaveStar(text)
        ? `k${createHash('sha1').update(text).digest('hex').slice(0, 20)}`
        : null;
    names.set(text, name);
  }
  return name ?? undefined;
}

/** A statement as the pool sent it: its text, its values, and its name when it went as a prepared one. */
export type SentStatement = { text: string; values: readonly unknown[]; name: string | undefined };

/** Sees every statement sent through the pool, and the promise of its result (a bench's counter, a test). */
export type StatementHook = (statement: SentStatement, result: Promise<pg.QueryResult>) => void;

/** A pooled client as Kysely sees it: query() names data statements; release() gives it back to pg's pool. */
function wrap(client: pg.PoolClient, hook: StatementHook | undefined): PostgresPoolClient {
  function query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(textOrCursor: string | PostgresCursor<R>, values?: ReadonlyArray<unknown>) {
    // A cursor (a Kysely stream: the app streams nothing today) is pg's own submittable, passed on.
    if (typeof textOrCursor !== 'string')
      return client.query(textOrCursor as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    const text = textOrCursor;
    const given = (values ?? []) as unknown[];
    const name = statementName(text);
    const result = name ? client.query({ name, text, values: given }) : client.query(text, given);
    hook?.({ text, values: given, name }, result);
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }
  return { query, release: (destroy?: boolean) => client.release(destroy) };
}

/**
 * A pool for Kysely's PostgresDialect over a pg.Pool: each pooled connection keeps one wrapper (Kysely keys
 * its connections by the client object it is given). `end` runs `beforeEnd` first (what else the database
 * handle holds open, such as the announcements' own connection).
 */
export function namedStatementPool(
  pool: pg.Pool,
  options: {
    /** The pool's connection settings, for the connection Kysely opens to cancel a statement. */
    connection: pg.ClientConfig;
    onStatement?: StatementHook | undefined;
    beforeEnd?: () => void;
  },
): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    Client: pg.Client,
    options: options.connection,
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client, options.onStatement);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end() {
      options.beforeEnd?.();
      return pool.end();
    },
  };
}
