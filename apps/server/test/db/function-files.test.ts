import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyFunctionFiles,
  type FunctionFile,
  functionFiles,
  staleFunctionFiles,
} from '../../src/db/function-files';
import { migrateToLatest, pendingMigrations } from '../../src/db/migrate';
import { asOwner } from '../../src/db/scope';
import { createTestDb, type TestDb } from '../test-db';

// The database's functions live in db/functions/*.sql (db/function-files.ts): applied after the
// migrations whenever a file's hash is not the one recorded, so a changed body reaches a migrated database
// on its next start, while the migration that first made the function stays as it landed.

const MIGRATIONS = join(import.meta.dirname, '../../src/db/migrations');

/** Every function of the schema (not an extension's): name and body. */
async function functionsOf(db: TestDb['db']): Promise<Map<string, string>> {
  const { rows } = await asOwner(() =>
    sql<{ name: string; body: string }>`
      select p.proname as name, p.prosrc as body from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f'
        and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')`.execute(db),
  );
  return new Map(rows.map((row) => [row.name, row.body]));
}

/** The file's text with `edit` applied to its body, hashed again. */
const edited = (file: FunctionFile, edit: (text: string) => string): FunctionFile => {
  const text = edit(file.text);
  return { ...file, text, sha256: `${file.sha256}-edited` };
};

describe('the function files', () => {
  const files = functionFiles();

  it('are one CREATE OR REPLACE FUNCTION each, of the function the file is named after', () => {
    expect(files.length).toBeGreaterThan(10);
    for (const { file, text } of files) {
      const name = file.replace(/\.sql$/, '');
      expect(text, file).toMatch(new RegExp(`^CREATE OR REPLACE FUNCTION ${name}\\(`, 'm'));
      expect(text.match(/CREATE (OR REPLACE )?FUNCTION/gi), file).toHaveLength(1);
    }
  });

  it('are defined by no migration after 025, which the file would undo at the end of the migrations', () => {
    const later = readdirSync(MIGRATIONS).filter((file) => /^\d{3}-.+\.ts$/.test(file) && file > '025');
    const redefined = later.flatMap((migration) => {
      const text = readFileSync(join(MIGRATIONS, migration), 'utf8');
      return files
        .map(({ file }) => file.replace(/\.sql$/, ''))
        .filter((name) => new RegExp(`CREATE\\s+(OR\\s+REPLACE\\s+)?FUNCTION\\s+${name}\\b`, 'i').test(text))
        .map((name) => `${migration}: ${name} (edit db/functions/${name}.sql instead)`);
    });
    expect(redefined).toEqual([]);
  });
});

describe('a migrated database', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.close());
  const files = functionFiles();

  it('has every function of its schema from a file, as the file says, and nothing pending', async () => {
    const functions = await functionsOf(t.db);
    const named = files.map(({ file }) => file.replace(/\.sql$/, ''));
    expect([...functions.keys()].sort()).toEqual(named);
    for (const { file, text } of files) {
      const body = /\nAS \$\$([\s\S]*)\$\$\s*$/.exec(text)?.[1];
      expect(functions.get(file.replace(/\.sql$/, '')), file).toBe(body);
    }
    expect(await pendingMigrations(t.db)).toEqual([]);
  });

  it('gets a changed file on the next migration run, recorded, and only that file', async () => {
    const file = files.find((f) => f.file === 'parley_slot_freed.sql');
    if (!file) throw new Error('parley_slot_freed.sql is missing');
    const changed = edited(file, (text) =>
      text.replace(
        "PERFORM pg_notify('parley_slots', NEW.id::text);",
        "PERFORM pg_notify('parley_slots', NEW.id::text); -- changed",
      ),
    );
    const next = files.map((f) => (f === file ? changed : f));
    expect(await asOwner(() => staleFunctionFiles(t.db, next))).toEqual(['parley_slot_freed.sql']);
    expect(await asOwner(() => applyFunctionFiles(t.db, next))).toEqual(['parley_slot_freed.sql']);
    expect((await functionsOf(t.db)).get('parley_slot_freed')).toContain('-- changed');
    expect(await asOwner(() => staleFunctionFiles(t.db, next))).toEqual([]);
    // Applied once: the next run has nothing to do.
    expect(await asOwner(() => applyFunctionFiles(t.db, next))).toEqual([]);
    // The file as it is in the tree is now the stale one: pending, and the migration run brings it back.
    expect(await pendingMigrations(t.db)).toEqual(['functions/parley_slot_freed.sql']);
    await migrateToLatest(t.db);
    expect((await functionsOf(t.db)).get('parley_slot_freed')).not.toContain('-- changed');
    expect(await pendingMigrations(t.db)).toEqual([]);
  });

  it('a file that fails leaves every function and record as it was', async () => {
    const [first, second] = files as [FunctionFile, FunctionFile];
    const broken = edited(second, (text) => text.replace(/\nAS \$\$\n/, '\nAS $$\nnot sql at all;\n'));
    const changedFirst = edited(first, (text) => `${text}\n-- changed too\n`);
    const before = await functionsOf(t.db);
    await expect(
      asOwner(() => applyFunctionFiles(t.db, [changedFirst, broken, ...files.slice(2)])),
    ).rejects.toThrow();
    expect(await functionsOf(t.db)).toEqual(before);
    expect(await asOwner(() => staleFunctionFiles(t.db))).toEqual([]);
  });
});
