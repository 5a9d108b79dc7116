import { ConfigError, parseConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { asSystem } from '../db/scope';
import { runOperator } from './operator';

// `npm run operator -- <command>`: the same configuration and database as the server (DATABASE_URL, or
// the embedded database in DATA_DIR, which only one process may open: stop the server first).
async function main(): Promise<number> {
  const config = parseConfig(process.env);
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  try {
    await migrateToLatest(db);
    // Every school's rows: the operator works across schools, as the app's role in the system scope.
    return await asSystem(() =>
      runOperator({ db, config }, process.argv.slice(2), (line) => console.log(line)),
    );
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `operator: ${error instanceof Error ? error.message : error}`,
    );
    process.exit(1);
  },
);
