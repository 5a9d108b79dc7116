import type { CompiledQuery } from 'kysely';
import type { Db } from '../../src/db/database';

/** The statements `read` sends, as compiled (and still run, on the test database): for their plans. */
export async function statementsOf(db: Db, read: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  const sent: CompiledQuery[] = [];
  const executor = db.getExecutor();
  await read(
    db.withPlugin({
      transformQuery: ({ node, queryId }) => {
        sent.push(executor.compileQuery(node, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    }),
  );
  return sent;
}
