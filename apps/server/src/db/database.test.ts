import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { migrateToLatest } from './migrate';

// The embedded database must carry the contrib extensions the migrations create, in memory and on disk.
// A whole migration from nothing, twice: a busy 2-CPU machine has taken 20 s for one.
const MIGRATION_FROM_NOTHING_MS = 90_000;

describe('openDatabase (PGlite)', () => {
  it.each([
    ['in memory', () => ':memory:'],
    ['in a folder', () => mkdtempSync(join(tmpdir(), 'parley-db-'))],
  ])(
    'migrates to the latest schema %s, booking constraints included',
    async (_where, dir) => {
      const dataDir = dir();
      const db = openDatabase({ dataDir });
      try {
        await migrateToLatest(db);
        const found = await sql<{ conname: string }>`select conname from pg_constraint
        where conname = 'bookings_parent_overlap'`.execute(db);
        expect(found.rows).toEqual([{ conname: 'bookings_parent_overlap' }]);
      } finally {
        await db.destroy();
        if (dataDir !== ':memory:') rmSync(dataDir, { recursive: true, force: true });
      }
    },
    MIGRATION_FROM_NOTHING_MS,
  );
});
