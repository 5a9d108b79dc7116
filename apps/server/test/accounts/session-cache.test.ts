import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import { sessionCacheOf } from '../../src/modules/tokens/session-cache';
import { bearer, registeredSchool } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import { connectElsewhere } from '../test-db';

// The sessions a process keeps (decision 029, migration 018): on PostgreSQL each process keeps what it has
// looked up and forgets a user's sessions when the database announces a change to them, from this process
// at once and from any other as soon as the announcement arrives. Nothing is kept while the announcements
// cannot be heard, and nothing on PGlite.

const onPg = process.env.TEST_DB === 'pg';
let t: TestApp;
/** A connection of its own to the test database: what another process of the app would change. */
let elsewhere: pg.Client | undefined;

beforeAll(async () => {
  t = await createTestApp();
  elsewhere = await connectElsewhere(t.db);
  if (onPg) {
    // Sessions are kept once the process hears the announcements (it starts listening at its first lookup).
    await until(() => sessionCacheOf(t.db).hearing);
  }
});
afterAll(async () => {
  await elsewhere?.end();
  await t.close();
});

const data = (token: string) => t.app.inject({ url: '/api/users/data', headers: bearer(token) });
const status = async (token: string) => (await data(token)).statusCode;
const other = () => {
  if (!elsewhere) throw new Error('PostgreSQL only');
  return elsewhere;
};
const setStatus = (userId: number, value: number) =>
  other().query('update users set status = $1 where id = $2', [value, userId]);
/** Turns the announcement of a user's status off or on (the negative control). */
const announceStatus = (on: boolean) =>
  asOwner(() =>
    sql`alter table users ${sql.raw(on ? 'enable' : 'disable')} trigger users_session_changed`.execute(t.db),
  );
/** Runs `work` while the users' status changes go unannounced. */
async function unannounced(work: () => Promise<void>): Promise<void> {
  await announceStatus(false);
  try {
    await work();
  } finally {
    await announceStatus(true);
  }
}

/** The session is kept: once read while the process hears, a change nobody announces goes unseen. */
async function expectKept(school: { userId: number; accessToken: string }): Promise<void> {
  await until(() => sessionCacheOf(t.db).hearing);
  expect(await status(school.accessToken)).toBe(200);
  await unannounced(async () => {
    await setStatus(school.userId, 0);
    expect(await status(school.accessToken)).toBe(200);
  });
}

async function until(condition: () => Promise<boolean> | boolean, ms = 5000): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

describe.runIf(onPg)('the sessions a process keeps, on PostgreSQL', () => {
  it('are kept between requests: a change the database does not announce goes unseen (negative control)', async () => {
    const school = await registeredSchool(t.app, t.db, 'Kept Session School');
    await expectKept(school);
    // Announced, the same change ends the kept session (made again: a status set to itself says nothing).
    await setStatus(school.userId, 1);
    await setStatus(school.userId, 0);
    await until(async () => (await status(school.accessToken)) === 401);
  });

  it('are forgotten as soon as another process commits a change to the user', async () => {
    const school = await registeredSchool(t.app, t.db, 'Other Process School');
    expect(await status(school.accessToken)).toBe(200);
    await setStatus(school.userId, 0);
    const took = await until(async () => (await status(school.accessToken)) === 401, 2000);
    expect(took).toBeLessThan(1000);
    // Enabled again elsewhere, the token works again.
    await setStatus(school.userId, 1);
    await until(async () => (await status(school.accessToken)) === 200, 2000);
    // A token revoked elsewhere (a logout served by another process) stops too.
    await other().query(`update auth_tokens set used_at = now() where user_id = $1 and kind = 'access'`, [
      school.userId,
    ]);
    await until(async () => (await status(school.accessToken)) === 401, 2000);
  });

  it('are forgotten at once when this process commits the change: a role taken, a logout', async () => {
    const school = await registeredSchool(t.app, t.db, 'Same Process School');
    const asAdmin = () =>
      t.app.inject({ url: '/api/user/search-email?q=a', headers: bearer(school.accessToken) });
    expect((await asAdmin()).statusCode).toBe(200);
    // A role given is seen at once too.
    await t.db
      .insertInto('user_roles')
      .values({ user_id: school.userId, school_id: school.schoolId, role: 'parent' })
      .execute();
    expect((await data(school.accessToken)).json()).toMatchObject({ roles: ['admin', 'parent'] });
    await t.db
      .deleteFrom('user_roles')
      .where('user_id', '=', school.userId)
      .where('role', '=', 'admin')
      .execute();
    expect((await asAdmin()).statusCode).toBe(403);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/user/logout',
      headers: bearer(school.accessToken),
    });
    expect(logout.statusCode).toBe(200);
    expect(await status(school.accessToken)).toBe(401);
  });

  it('keeps nothing while the announcements cannot be heard, and keeps again once they can', async () => {
    const school = await registeredSchool(t.app, t.db, 'Lost Listener School');
    expect(await status(school.accessToken)).toBe(200);
    await other().query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
      [LISTENER],
    );
    await until(() => !sessionCacheOf(t.db).hearing);
    await unannounced(async () => {
      await setStatus(school.userId, 0);
      expect(await status(school.accessToken)).toBe(401);
      await setStatus(school.userId, 1);
      expect(await status(school.accessToken)).toBe(200);
    });
    // The listener comes back by itself, and sessions are kept again.
    await expectKept(school);
    await setStatus(school.userId, 1);
  });
});

describe.runIf(!onPg)('the sessions a process keeps, on PGlite', () => {
  it('are none: every request reads its session', async () => {
    const school = await registeredSchool(t.app, t.db, 'Embedded Session School');
    expect(await status(school.accessToken)).toBe(200);
    expect(sessionCacheOf(t.db).hearing).toBe(false);
    await unannounced(async () => {
      await t.db.updateTable('users').set({ status: 0 }).where('id', '=', school.userId).execute();
      expect(await status(school.accessToken)).toBe(401);
    });
  });
});
