import pg from 'pg';

/** Why Parley will not start through a pooler that shares server sessions between its connections. */
export const SHARED_SESSIONS_MESSAGE =
  'DATABASE_URL leads to a pooler that shares PostgreSQL sessions between connections (transaction or ' +
  "statement mode, such as PgBouncer's pool_mode = transaction). Parley needs direct or session-mode " +
  "connections: it listens for the other processes' changes (LISTEN), keeps prepared statements, and " +
  'row-level security reads settings of the session (decision 029). Point DATABASE_URL at PostgreSQL ' +
  'itself or at a pooler in session mode.';

const backend = async (client: pg.Client): Promise<number> =>
  (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? -1;

/**
 * Refuses a connection string whose connections do not each keep one server session. Two connections
 * show it: while the second holds a transaction, the first must still be on the session it had. A pooler
 * in transaction mode gives the second the session the first just used (PgBouncer hands out the last
 * freed one) and the first another; in statement mode the transaction itself is refused.
 */
export async function checkSessionConnections(connectionString: string): Promise<void> {
  const clients = [1, 2].map(() => new pg.Client({ connectionString, connectionTimeoutMillis: 5000 }));
  const [first, second] = clients as [pg.Client, pg.Client];
  try {
    for (const client of clients) {
      client.on('error', () => {}); // a connection dropped meanwhile fails the query in flight
      await client.connect();
    }
    const before = await backend(first);
    await second.query('begin');
    const held = await backend(second);
    const after = await backend(first);
    await second.query('rollback');
    if (held === before || after !== before) throw new Error(SHARED_SESSIONS_MESSAGE);
  } catch (error) {
    if (error instanceof Error && /pooling mode/.test(error.message))
      throw new Error(`${SHARED_SESSIONS_MESSAGE} (${error.message})`);
    throw error;
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}
