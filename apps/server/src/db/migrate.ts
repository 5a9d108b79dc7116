import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import * as accounts from './migrations/001-accounts';
import * as directory from './migrations/002-directory';
import * as events from './migrations/003-events';
import * as booking from './migrations/004-booking';

// Listed statically so the bundle and tests need no file-system scan.
const migrations: Record<string, Migration> = {
  '001-accounts': accounts,
  '002-directory': directory,
  '003-events': events,
  '004-booking': booking,
};

export async function migrateToLatest(
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
  db: Kysely<any>,
): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
