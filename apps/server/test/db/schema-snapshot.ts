import { sql } from 'kysely';
import type { Db } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';

/**
 * The schema as PostgreSQL describes it, order-free: columns (type, null, default), constraints and
 * indexes by definition, triggers, policies and functions. Two databases with equal snapshots behave alike.
 */
export async function schemaSnapshot(db: Db): Promise<Record<string, string[]>> {
  const rows = async (query: ReturnType<typeof sql<{ line: string }>>) =>
    (await asOwner(() => query.execute(db))).rows.map((row) => row.line).sort();
  return {
    columns: await rows(sql<{ line: string }>`
      select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
        || coalesce(column_default, '') || ' ' || coalesce(generation_expression, '') as line
      from information_schema.columns where table_schema = 'public'`),
    constraints: await rows(sql<{ line: string }>`
      select c.conrelid::regclass || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) as line
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public'`),
    indexes: await rows(sql<{ line: string }>`
      select indexdef as line from pg_indexes where schemaname = 'public'`),
    triggers: await rows(sql<{ line: string }>`
      select pg_get_triggerdef(t.oid) as line from pg_trigger t
      join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not t.tgisinternal`),
    policies: await rows(sql<{ line: string }>`
      select tablename || ' ' || policyname || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '')
        as line from pg_policies where schemaname = 'public'`),
    functions: await rows(sql<{ line: string }>`
      select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(p.prosrc) as line
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f'
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`),
  };
}
