import { CompiledQuery as Compiled, type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import { eventContext, slotLabels } from '../../src/modules/booking/booking.repository';
import { createTestDb, type TestDb } from '../test-db';
import { statementsOf } from './statements';

// What a process keeps in memory stays true only while the database announces every change to it: the
// slot labels (slot-labels.ts) are forgotten on migration 020's announcements, the event contexts
// (event-contexts.ts) are read again when migration 021's triggers have moved the event's version on. A
// column added to one of those reads (a teacher's title on a label) that no trigger watches would be
// served stale for as long as the process lives, and no other test would notice.
//
// So, for each cached read: the columns it reads, as PostgreSQL plans the very statement the repository
// sends (EXPLAIN VERBOSE names every column each scan reads, `selectAll` and raw SQL included), against
// the columns its triggers watch, from the catalog (pg_trigger: the UPDATE OF list, else every column,
// narrowed to the NEW columns its WHEN clause compares). A column read and not watched fails, unless it
// is one no row ever changes: a primary key's, or school_id (the tenancy wall). Both plants below prove
// the check fails: a column added to the read, a column dropped from a trigger.

/** A cached read: how it is sent, and the trigger functions that announce (or version) its changes. */
type CachedRead = { name: string; functions: string[]; read: (db: Db) => Promise<unknown> };

const CACHED_READS: CachedRead[] = [
  {
    name: 'slot labels (modules/booking/slot-labels.ts; migration 020)',
    functions: ['parley_slot_labels_changed'],
    read: (db) => slotLabels(db, 1, 1),
  },
  {
    name: 'event contexts (modules/booking/event-contexts.ts; migration 021)',
    functions: ['parley_event_version_next', 'parley_event_rows_changed', 'parley_event_owner_changed'],
    read: (db) => eventContext(db, 1, 1),
  },
];

/** `table.column` names. */
type Columns = Set<string>;

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** Every column a statement reads, by its plan: each scan's relation and alias, every expression's `alias.column`. */
async function columnsRead(db: Db, statement: CompiledQuery): Promise<Columns> {
  const explained = await db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    Compiled.raw(`explain (verbose, format json) ${statement.sql}`, [...statement.parameters]),
  );
  const plan = explained.rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (!plan) throw new Error(`no plan for ${statement.sql}`);
  const tableOf = new Map<string, string>();
  const expressions: string[] = [];
  const walk = (node: PlanNode) => {
    const relation = node['Relation Name'];
    if (typeof relation === 'string') tableOf.set(String(node.Alias ?? relation), relation);
    // A scan feeding a join or a sort may emit its table's every column (PostgreSQL's "physical target
    // list", sparing a projection): what is used of it shows in its parent's Output and conditions.
    const feedsParent = ['Outer', 'Inner', 'Member'].includes(String(node['Parent Relationship']));
    for (const [key, value] of Object.entries(node)) {
      if (key === 'Plans' || (key === 'Output' && typeof relation === 'string' && feedsParent)) continue;
      for (const text of [value].flat()) if (typeof text === 'string') expressions.push(text);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  const read: Columns = new Set();
  for (const text of expressions)
    for (const [, alias, column] of text.matchAll(/\b([a-z_][a-z0-9_]*)\."?([a-z_][a-z0-9_]*)"?/g)) {
      const table = alias && tableOf.get(alias);
      if (table && column) read.add(`${table}.${column}`);
    }
  return read;
}

/** What the triggers calling `functions` watch on UPDATE, and the columns no row ever changes. */
async function columnsWatched(db: Db, functions: string[]): Promise<{ watched: Columns; fixed: Columns }> {
  const { rows: triggers } = await sql<{ table: string; attnums: number[]; definition: string }>`
    select c.relname as table, t.tgattr::int2[] as attnums, pg_get_triggerdef(t.oid) as definition
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and p.proname = any(${functions}) and t.tgtype & 16 <> 0`.execute(db);
  const { rows: attributes } = await sql<{ table: string; attnum: number; column: string; key: boolean }>`
    select c.relname as table, a.attnum, a.attname as column,
      exists (select from pg_constraint k where k.conrelid = c.oid and k.contype = 'p'
        and a.attnum = any(k.conkey)) as key
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`.execute(
    db,
  );
  const watched: Columns = new Set();
  for (const trigger of triggers) {
    const columns = attributes.filter((a) => a.table === trigger.table);
    // UPDATE OF a, b: those; no list: every column.
    let named =
      trigger.attnums.length > 0 ? columns.filter((a) => trigger.attnums.includes(a.attnum)) : columns;
    // WHEN (…): only the NEW columns it compares can make it fire.
    const when = /\bWHEN \((.*)\) EXECUTE FUNCTION\b/is.exec(trigger.definition)?.[1];
    if (when) {
      const compared = new Set([...when.matchAll(/\bnew\."?([a-z_][a-z0-9_]*)"?/gi)].map((m) => m[1]));
      named = named.filter((a) => compared.has(a.column));
    }
    for (const a of named) watched.add(`${a.table}.${a.column}`);
  }
  const fixed = new Set(
    attributes.filter((a) => a.key || a.column === 'school_id').map((a) => `${a.table}.${a.column}`),
  );
  return { watched, fixed };
}

/** The columns `cached` reads that no trigger of its watches (and that may change), sorted. */
async function unwatched(db: Db, cached: CachedRead, statements?: CompiledQuery[]): Promise<string[]> {
  const read: Columns = new Set();
  for (const statement of statements ?? (await statementsOf(db, cached.read)))
    for (const column of await columnsRead(db, statement)) read.add(column);
  const { watched, fixed } = await columnsWatched(db, cached.functions);
  return [...read].filter((column) => !watched.has(column) && !fixed.has(column)).sort();
}

let test: TestDb;
beforeAll(async () => {
  test = await createTestDb();
});
afterAll(() => test.close());

describe('every column a cached read reads is watched by its triggers', () => {
  it.each(CACHED_READS)('$name', async (cached) => {
    const statements = await statementsOf(test.db, cached.read);
    expect(statements.length).toBeGreaterThan(0);
    // The check sees the read: the columns it knows it must (not an empty plan that passes anything).
    const read = new Set<string>();
    for (const statement of statements) for (const c of await columnsRead(test.db, statement)) read.add(c);
    expect(read.size).toBeGreaterThan(5);
    expect(
      await unwatched(test.db, cached),
      `read by the ${cached.name} but watched by no trigger of theirs: add them to a trigger (a new migration)`,
    ).toEqual([]);
  });
});

describe('the check fails when', () => {
  const [labels, contexts] = CACHED_READS as [CachedRead, CachedRead];

  it("a column is added to a cached read without its trigger: the teacher's title on a label", async () => {
    const [statement] = await statementsOf(test.db, labels.read);
    if (!statement) throw new Error('the labels were not read');
    const withTitle = Compiled.raw(
      `select q.*, t.title from (${statement.sql}) q left join users t on t.id = q.teacher_id`,
      [...statement.parameters],
    );
    expect(await columnsRead(test.db, withTitle)).toContain('users.title');
    expect(await unwatched(test.db, labels, [withTitle])).toEqual(['users.title']);
  });

  it("a trigger stops watching a column a read reads: a teacher's last name, a school's time zone", async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_triggerdef(t.oid) as definition from pg_trigger t
      where t.tgname in ('users_labels_changed', 'schools_version_changed') order by t.tgname`.execute(
      test.db,
    );
    expect(rows).toHaveLength(2);
    const ddl = (statement: RawBuilder<unknown>) => asOwner(() => statement.execute(test.db));
    await ddl(sql`drop trigger users_labels_changed on users`);
    await ddl(sql`drop trigger schools_version_changed on schools`);
    try {
      await ddl(sql`create trigger users_labels_changed after update of first_name on users for each row
        execute function parley_slot_labels_changed()`);
      // Still listed in UPDATE OF, but its WHEN no longer compares it: never fires for it.
      await ddl(sql`create trigger schools_version_changed after update of name, timezone on schools for each row
        when (old.name is distinct from new.name) execute function parley_event_owner_changed()`);
      expect(await unwatched(test.db, labels)).toEqual(['users.last_name']);
      expect(await unwatched(test.db, contexts)).toEqual(['schools.timezone']);
    } finally {
      await ddl(sql`drop trigger users_labels_changed on users`);
      await ddl(sql`drop trigger schools_version_changed on schools`);
      for (const { definition } of rows) await ddl(sql.raw(definition));
    }
    expect(await unwatched(test.db, labels)).toEqual([]);
    expect(await unwatched(test.db, contexts)).toEqual([]);
  });
});
