// Bulk add of 2,000 families (a student and two parents each: 6,000 people) through the real app, timed.
// Goals (issue 3): under 10 s on PGlite, under 5 s on PostgreSQL, in one transaction, with invitations.
//
//   node --import tsx bench/bulk-add.ts                                   PGlite only
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/bulk-add.ts
//
// On PostgreSQL it creates its own database (parley_bench_<random>) and drops it at the end.
// Exits non-zero when a goal is missed or the result is not what 2,000 new families must give.
import { randomBytes } from 'node:crypto';
import { buildApp } from '../apps/server/src/app';
import { type Db, openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { MemoryStore } from '../apps/server/src/lib/rate-limiter';
import { adminQuery, withDatabase } from '../apps/server/test/global-setup';
import { adminToken, benchConfig } from './bench-support';

const FAMILIES = 2000;
const GOALS = { pglite: 10, postgres: 5 } as const;

type Figures = {
  database: keyof typeof GOALS;
  families: number;
  people: number;
  previewSeconds: number;
  confirmSeconds: number;
  goalSeconds: number;
  ok: boolean;
  problem?: string;
};

/** A header and one line per family: student, first parent, second parent (separated families are normal). */
function familiesCsv(count: number): string {
  const lines = [
    'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email,Parent 2 first name,Parent 2 last name,Parent 2 email',
  ];
  for (let i = 0; i < count; i++) {
    lines.push(
      [
        `Stu${i}`,
        `Family${i}`,
        `student${i}@bench.example.org`,
        `Mum${i}`,
        `Family${i}`,
        `mum${i}@bench.example.org`,
        `Dad${i}`,
        `Other${i}`,
        `dad${i}@bench.example.org`,
      ].join(','),
    );
  }
  return lines.join('\n');
}

async function run(database: Figures['database'], db: Db, csv: string): Promise<Figures> {
  await migrateToLatest(db);
  const config = benchConfig();
  const app = await buildApp({ db, config, logger: false, rateLimitStore: new MemoryStore() });
  try {
    const headers = { authorization: `Bearer ${await adminToken(app, db, 'admin@bench.example.org')}` };
    const post = (query: string) =>
      app.inject({ method: 'POST', url: `/api/users/bulk-add-students${query}`, headers, payload: { csv } });

    let started = performance.now();
    const preview = await post('');
    const previewSeconds = (performance.now() - started) / 1000;
    if (preview.statusCode !== 200) throw new Error(`preview failed: ${preview.statusCode} ${preview.body}`);

    started = performance.now();
    const confirm = await post('?confirm=true&send_invite=true');
    const confirmSeconds = (performance.now() - started) / 1000;
    if (confirm.statusCode !== 200) throw new Error(`confirm failed: ${confirm.statusCode} ${confirm.body}`);

    const people = FAMILIES * 3;
    const { summary } = confirm.json() as { summary: Record<string, number> };
    const [mails, links] = await Promise.all([
      db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('parent_students')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const expected = { created: people, rolesAdded: people, skipped: 0, invalid: 0, invited: people };
    let problem: string | undefined;
    if (JSON.stringify(summary) !== JSON.stringify(expected)) problem = `summary ${JSON.stringify(summary)}`;
    // One verification mail for the admin, then one invitation per person; two parents per student.
    else if (Number(mails.n) !== people + 1) problem = `${mails.n} mails queued, expected ${people + 1}`;
    else if (Number(links.n) !== FAMILIES * 2) problem = `${links.n} family links, expected ${FAMILIES * 2}`;
    const goalSeconds = GOALS[database];
    return {
      database,
      families: FAMILIES,
      people,
      previewSeconds,
      confirmSeconds,
      goalSeconds,
      ok: !problem && confirmSeconds < goalSeconds,
      ...(problem && { problem }),
    };
  } finally {
    await app.close();
  }
}

async function onPostgres(adminUrl: string, csv: string): Promise<Figures> {
  const name = `parley_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  // The production pool settings (statement_timeout 10 s, lock_timeout 3 s) apply to the bulk add too.
  const db = openDatabase({ databaseUrl: withDatabase(adminUrl, name) });
  try {
    return await run('postgres', db, csv);
  } finally {
    await db.destroy();
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function onPglite(csv: string): Promise<Figures> {
  const db = openDatabase({ dataDir: ':memory:' });
  try {
    return await run('pglite', db, csv);
  } finally {
    await db.destroy();
  }
}

function print(f: Figures): void {
  const rate = (n: number) => Math.round(n / f.confirmSeconds).toLocaleString('en-GB');
  console.log(
    [
      `${f.database.padEnd(8)} ${f.families} families (${f.people} people, CSV rows ${f.families})`,
      `preview ${f.previewSeconds.toFixed(2)} s`,
      `confirm+invite ${f.confirmSeconds.toFixed(2)} s = ${rate(f.families)} rows/s (${rate(f.people)} people/s)`,
      `goal < ${f.goalSeconds} s: ${f.ok ? 'met' : 'MISSED'}${f.problem ? ` (${f.problem})` : ''}`,
    ].join(' | '),
  );
}

async function main(): Promise<void> {
  const csv = familiesCsv(FAMILIES);
  console.log(`bulk-add-students?confirm=true&send_invite=true, CSV ${(csv.length / 1024).toFixed(0)} KiB`);
  const results: Figures[] = [];
  results.push(await onPglite(csv));
  print(results[0] as Figures);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    results.push(await onPostgres(url, csv));
    print(results[1] as Figures);
  } else {
    console.log('postgres skipped (set TEST_DATABASE_URL to an admin URL to run it)');
  }
  if (results.some((f) => !f.ok)) process.exitCode = 1;
}

await main();
