import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import landed from '../../src/db/migrations/landed.json';

// A migration that has landed is never edited (a database that ran it never runs it again, so an edit
// reaches fresh installs only): each file's SHA-256 is recorded in landed.json when it lands. A change to
// the schema is a new migration; a new migration's line is added to landed.json with it. A function's body
// is not frozen here: it lives in db/functions/*.sql, applied when it changes (db/function-files.ts).

const DIR = join(import.meta.dirname, '../../src/db/migrations');
const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(DIR, file)))
    .digest('hex');

describe('landed migrations are frozen', () => {
  const files = readdirSync(DIR).filter((file) => /^\d{3}-.+\.ts$/.test(file));
  const recorded = landed as Record<string, string>;

  it('has a recorded checksum for every migration, and a migration for every checksum', () => {
    const missing = files.filter((file) => !(file in recorded));
    expect(
      missing.map((file) => `"${file}": "${sha256(file)}"`),
      'record these in apps/server/src/db/migrations/landed.json',
    ).toEqual([]);
    expect(Object.keys(recorded).filter((file) => !files.includes(file))).toEqual([]);
  });

  it.each(files.filter((file) => file in recorded))('%s is as it landed', (file) => {
    expect(sha256(file), `${file} was edited after it landed: add a new migration instead`).toBe(
      recorded[file],
    );
  });
});

describe('every migration runs', () => {
  it('is listed in db/migrate.ts (a file not listed there never reaches a database)', () => {
    const listed = readFileSync(join(DIR, '../migrate.ts'), 'utf8');
    const files = readdirSync(DIR).filter((file) => /^\d{3}-.+\.ts$/.test(file));
    const unlisted = files
      .map((file) => file.replace(/\.ts$/, ''))
      .filter((name) => !listed.includes(`'${name}': `) || !listed.includes(`'./migrations/${name}'`));
    expect(unlisted).toEqual([]);
  });
});
