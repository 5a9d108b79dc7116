import type { AuditAction, AuditEntry, AuditListResponse } from '@parley/domain/audit';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database';
import { type Api, expectStatus } from '../directory/directory-helpers';
import { bearer } from '../factories';

// Fixtures of the audit trail tests: staff calls from a known address and browser (what an entry must
// record as "from where"), and the entries a screen reads.

export const STAFF_IP = '203.0.113.7';
export const STAFF_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';

/** Requests under /api/ from one address with one User-Agent, with an optional bearer token. */
export function from(app: FastifyInstance, ip = STAFF_IP, userAgent = STAFF_AGENT): Api {
  const headers = (token?: string) => ({ 'user-agent': userAgent, ...(token ? bearer(token) : {}) });
  return {
    get: (path, token) =>
      app.inject({ method: 'GET', url: `/api/${path}`, headers: headers(token), remoteAddress: ip }),
    post: (path, token, payload) =>
      app.inject({
        method: 'POST',
        url: `/api/${path}`,
        headers: headers(token),
        remoteAddress: ip,
        ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
      }),
  };
}

/** GET audit/person or audit/event as an admin: the entries, newest first. */
export async function entriesOf(
  http: Api,
  token: string,
  about: 'person' | 'event',
  id: number,
): Promise<AuditEntry[]> {
  return expectStatus<AuditListResponse>(await http.get(`audit/${about}?id=${id}`, token), 200).items;
}

/** The entries of one action, newest first. */
export const withAction = (entries: AuditEntry[], action: AuditAction) =>
  entries.filter((entry) => entry.action === action);

/** Every entry of the database (all schools), for "nothing was recorded" checks. */
export async function entryCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('audit_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Who and from where, as the staff client sent it; when, within the test's window. */
export function expectWhoWhenWhere(
  entry: AuditEntry | undefined,
  actor: { id: number; email: string },
  since: Date,
): void {
  expect(entry).toBeDefined();
  if (!entry) return;
  expect(entry.actor).toMatchObject({ id: actor.id, email: actor.email.toLowerCase() });
  expect(entry.actor.name.length).toBeGreaterThan(0);
  expect(entry.ip).toBe(STAFF_IP);
  expect(entry.userAgent).toBe(STAFF_AGENT);
  const at = new Date(entry.at).getTime();
  expect(at).toBeGreaterThanOrEqual(since.getTime() - 1000);
  expect(at).toBeLessThanOrEqual(Date.now() + 1000);
  expect(entry.atLabel).toMatch(/\d{4}, \d{2}:\d{2}$/);
}

/**
 * The id of the transaction that last wrote a row (xmin): an entry written in the same transaction as
 * the change it records carries the same one.
 */
export async function writtenBy(db: Db, table: 'bookings' | 'users' | 'audit_entries', id: number) {
  const { rows } = await sql<{
    xmin: string;
  }>`select xmin::text as xmin from ${sql.table(table)} where id = ${id}`.execute(db);
  return rows[0]?.xmin;
}
