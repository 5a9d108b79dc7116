import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_COLUMNS, SCHOOL_COLUMNS, USER_COLUMNS } from '../../src/db/columns';
import { asOwner } from '../../src/db/scope';
import type { SentStatement } from '../../src/db/statement-pool';
import * as accounts from '../../src/modules/accounts/accounts.repository';
import * as booking from '../../src/modules/booking/booking.repository';
import * as events from '../../src/modules/events/events.repository';
import * as users from '../../src/modules/users/users.repository';
import { booked, bookingPage, type Evening, evening, freeSlots, home } from '../booking/booking-helpers';
import { expectStatus } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';

// A rolling deploy: the new version's migrations run while the old version's processes still serve, their
// pooled connections holding the statements they prepared. PostgreSQL plans a prepared statement again
// when a table it reads changes, but refuses one whose result columns would change ("cached plan must not
// change result type", 0A000): a statement with a `*` in its select list or RETURNING, once a column is
// added. So such a statement is never prepared (db/statement-pool.ts), and the request paths list their
// columns (db/columns.ts): after `ALTER TABLE … ADD COLUMN`, the same calls on the same pool still serve.

/** The tables the calls below read or write, each given a column as a migration would. */
const ALTERED = [
  'schools',
  'users',
  'event_types',
  'events',
  'sections',
  'slots',
  'bookings',
  'mail_outbox',
  'auth_tokens',
];
/** Each call made this many times at once, so several pooled connections prepare its statements. */
const AT_ONCE = 5;

const pg = process.env.TEST_DB === 'pg';

describe.runIf(pg)('statements prepared before a migration adds columns', () => {
  let t: TestApp;
  let e: Evening;
  const sent: SentStatement[] = [];

  beforeAll(async () => {
    t = await createTestApp({ onStatement: (statement) => sent.push(statement) });
    e = await evening(t, { quick: true });
  });
  afterAll(() => t?.close());

  /** Reads through the app and straight through the repositories, AT_ONCE at a time. */
  async function reads() {
    const { db } = t;
    const one = async () => {
      await bookingPage(e, e.parent.token, e.code);
      await home(e, e.parent.token);
      expectStatus(await e.http.get('users/data', e.parent.token), 200);
      expect(await booking.findEventById(db, e.schoolId, e.eventId)).toMatchObject({ id: e.eventId });
      expect(await booking.eventContext(db, e.schoolId, e.eventId)).toBeDefined();
      expect(await events.findEvent(db, e.schoolId, e.eventId)).toMatchObject({ id: e.eventId });
      expect(await users.findUserById(db, e.parent.id)).toMatchObject({ id: e.parent.id });
      expect(await users.findUserByEmail(db, e.parent.email)).toMatchObject({ id: e.parent.id });
      expect(await users.findUserWithSchool(db, { id: e.parent.id })).toMatchObject({ id: e.parent.id });
      expect(await accounts.findSchool(db, e.schoolId)).toMatchObject({ id: e.schoolId });
    };
    await Promise.all(Array.from({ length: AT_ONCE }, one));
  }

  /** A booking and its cancellation, each the change's transaction. */
  async function bookAndCancel() {
    const page = await bookingPage(e, e.parent.token, e.code);
    const slotId = freeSlots(page.grid, e.teachers[0]?.id ?? 0)[0] ?? 0;
    const made = await booked(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id ?? 0 }]);
    expect(made.created).toHaveLength(1);
    await booked(e, e.parent.token, [], { cancelBookingIds: made.created });
  }

  it('serve the same calls, reads and writes, on the same pool after ALTER TABLE … ADD COLUMN', async () => {
    for (let round = 0; round < 2; round++) {
      await reads();
      await bookAndCancel();
    }
    for (const table of ALTERED)
      await asOwner(() => sql`alter table ${sql.table(table)} add column deploy_probe text`.execute(t.db));
    for (let round = 0; round < 2; round++) {
      await reads();
      await bookAndCancel();
    }
  });

  it('prepares every statement of a booking (the hot path lists its columns)', async () => {
    sent.length = 0;
    await bookAndCancel();
    const data = sent.filter((statement) => /^\s*(select|insert|update|delete|with)\b/i.test(statement.text));
    expect(data.length).toBeGreaterThan(5);
    expect(
      data.filter((statement) => statement.name === undefined).map((statement) => statement.text),
    ).toEqual([]);
  });
});

describe('the column lists of db/columns.ts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it.each([
    ['events', EVENT_COLUMNS],
    ['users', USER_COLUMNS],
    ['schools', SCHOOL_COLUMNS],
  ] as const)('name every column of %s as the migrations leave it', async (table, columns) => {
    const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_schema = 'public' and table_name = ${table}`.execute(t.db);
    expect([...columns].sort()).toEqual(rows.map((row) => row.column_name).sort());
  });
});
