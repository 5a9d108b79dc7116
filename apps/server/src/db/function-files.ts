import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';

// The database's functions (PL/pgSQL and SQL) live in db/functions/<name>.sql, one `CREATE OR REPLACE
// FUNCTION` each, rather than frozen inside the migration that first made them: a landed migration is
// never edited (migrations-frozen.test.ts), so a body changed in one would never reach a database that
// ran it. After the migrations, every file whose SHA-256 is not the one recorded in parley_function_files
// (migration 025) is run and recorded, in one transaction under the table's lock (processes starting
// together apply it once). A changed file is thus applied on the next start (or `npm run migrate`).
//
// A file may change a function's body and its attributes, not its arguments or result type (CREATE OR
// REPLACE refuses): that, a new function a migration's trigger needs at once, or a function dropped, is
// a migration's work; the file then says what the function is from there on. No migration after 025
// defines a function that has a file (function-files.test.ts), or the file would undo it at the end.

/** Where the files are: beside this module in the sources, beside main.js in the build (scripts/build-server.mjs). */
const DIR = fileURLToPath(new URL('./functions/', import.meta.url));

export type FunctionFile = { file: string; text: string; sha256: string };

let read: FunctionFile[] | undefined;

/** The function files, in name order (read once per process). */
export function functionFiles(): FunctionFile[] {
  read ??= readdirSync(DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const text = readFileSync(`${DIR}${file}`, 'utf8');
      return { file, text, sha256: createHash('sha256').update(text).digest('hex') };
    });
  return read;
}

// biome-ignore lint/suspicious/noExplicitAny: runs with the migrations, before the typed schema exists
type AnyDb = Kysely<any>;

/** The files whose recorded hash is not theirs (never applied, or changed since); to be run as the owner. */
export async function staleFunctionFiles(db: AnyDb, files = functionFiles()): Promise<string[]> {
  const { rows } = await sql<{ file: string; sha256: string }>`
    select file, sha256 from parley_function_files`.execute(db);
  const recorded = new Map(rows.map((row) => [row.file, row.sha256]));
  return files.filter((f) => recorded.get(f.file) !== f.sha256).map((f) => f.file);
}

/** Runs every stale function file and records it; answers the files run. As the owner, after the migrations. */
export async function applyFunctionFiles(db: AnyDb, files = functionFiles()): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await sql`lock table parley_function_files in share row exclusive mode`.execute(trx);
    const stale = new Set(await staleFunctionFiles(trx, files));
    for (const { file, text, sha256 } of files) {
      if (!stale.has(file)) continue;
      await sql.raw(text).execute(trx);
      await sql`insert into parley_function_files (file, sha256) values (${file}, ${sha256})
        on conflict (file) do update set sha256 = excluded.sha256, applied_at = now()`.execute(trx);
    }
    // A file removed: its record goes (dropping the function is a migration's work).
    await sql`delete from parley_function_files where not (file = any(${files.map((f) => f.file)}::text[]))`.execute(
      trx,
    );
    return [...stale];
  });
}
