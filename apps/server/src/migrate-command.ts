import { ConfigError, parseConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest, pendingMigrations } from './db/migrate';

// npm run migrate: the migrations as a deploy step, before the new version starts (the server also runs
// them at start, so a first look needs nothing). Exits 0 when the database is at this build's schema.

async function migrate(): Promise<void> {
  const config = parseConfig(process.env);
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  try {
    const pending = await pendingMigrations(db);
    if (pending.length === 0) {
      console.log('The database is up to date.');
      return;
    }
    await migrateToLatest(db);
    console.log(`Migrated: ${pending.join(', ')}.`);
  } finally {
    await db.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${String(error)}`);
  process.exit(1);
});
