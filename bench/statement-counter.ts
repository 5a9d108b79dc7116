import type pg from 'pg';
import type { StatementHook } from '../apps/server/src/db/statement-pool';

// What the benches' servers send to PostgreSQL, counted (and with `timed`, the time spent waiting on it)
// and, on demand, recorded. The app's statements are seen through its database handle's public seam
// (openDatabase's onStatement: db/statement-pool.ts), a bare endpoint's through `run`, which its own
// statements go through: the same counter for both, and nothing of pg replaced.

/** A statement recorded: its text, its values (dates as ISO text), whether prepared, the ids it returned. */
export type RecordedStatement = { text: string; values: unknown[]; prepared: boolean; ids: number[] };

export function statementCounter({ timed }: { timed: boolean }) {
  let queries = 0;
  let queryMs = 0;
  let recording: RecordedStatement[] | null = null;
  const hook: StatementHook = ({ text, values, name }, result) => {
    queries += 1;
    const started = timed ? performance.now() : 0;
    let recorded: RecordedStatement | undefined;
    if (recording) {
      recorded = {
        text,
        values: values.map((value) => (value instanceof Date ? value.toISOString() : value)),
        prepared: name !== undefined,
        ids: [],
      };
      recording.push(recorded);
    }
    if (!timed && !recorded) return;
    result.then(
      (answer) => {
        if (timed) queryMs += performance.now() - started;
        if (recorded)
          recorded.ids = answer.rows
            .map((row: { id?: unknown }) => row.id)
            .filter((id) => typeof id === 'number');
      },
      () => {
        if (timed) queryMs += performance.now() - started;
      },
    );
  };
  return {
    /** For the app: openDatabase's onStatement. */
    hook,
    /** A bare endpoint's statement on its pool or client, named when `name` is given. */
    run<R extends pg.QueryResultRow = Record<string, unknown>>(
      target: pg.Pool | pg.PoolClient,
      text: string,
      values: unknown[] = [],
      name?: string,
    ): Promise<pg.QueryResult<R>> {
      const result = name ? target.query<R>({ name, text, values }) : target.query<R>(text, values);
      hook({ text, values, name }, result);
      return result;
    },
    /** The statements sent so far, and the time spent waiting on them (0 unless timed). */
    counted: () => ({ queries, queryMs }),
    /** Starts recording the statements sent, or stops; returns those recorded since it started. */
    record(on: boolean): RecordedStatement[] {
      const recorded = recording ?? [];
      recording = on ? [] : null;
      return recorded;
    },
  };
}

export type StatementCounter = ReturnType<typeof statementCounter>;
