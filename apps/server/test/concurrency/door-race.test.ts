import { randomUUID } from 'node:crypto';
import type { ScanTicketResponse } from '@parley/domain/tickets';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database';
import { OPEN_DOOR, quickMember } from '../booking/booking-helpers';
import { api, expectStatus } from '../directory/directory-helpers';
import {
  createEvent,
  createSection,
  daysAhead,
  type EventSchool,
  eventSchool,
} from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { seedFamilies, seedTickets as seedFamilyTickets } from './race-support';

// Doors racing on real PostgreSQL (issue 10): five scanners present the same 1,000 tickets in different
// orders at once through the real app. Exactly one admission per ticket, every other presentation
// "Already Scanned", no 5xx. The negative control scans with check-then-update and shows that the same
// counting catches double admissions, so the harness can fail.

const TICKETS = 1000;
const SCANNERS = 5;

let t: TestApp;
let school: EventSchool;
let eventId: number;
let scanners: string[];

/** `count` tickets of the event, one per family, made straight in the database. */
async function seedTickets(db: Db, count: number): Promise<string[]> {
  return seedFamilyTickets(db, school.schoolId, eventId, await seedFamilies(db, school.schoolId, count));
}

const shuffled = <T>(items: T[]): T[] => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

/** Five orders: forward, backward, forward again (head-on with the first), and two shuffles. */
const ordersOf = (codes: string[]) => [codes, [...codes].reverse(), codes, shuffled(codes), shuffled(codes)];

type Tally = { success: Map<string, number>; already: number; other: Map<number, number> };

async function presentAll(
  orders: string[][],
  scanOne: (scanner: number, code: string) => Promise<'admitted' | 'already' | number>,
) {
  const tally: Tally = { success: new Map(), already: 0, other: new Map() };
  await Promise.all(
    orders.map(async (order, scanner) => {
      for (const code of order) {
        const outcome = await scanOne(scanner, code);
        if (outcome === 'admitted') tally.success.set(code, (tally.success.get(code) ?? 0) + 1);
        else if (outcome === 'already') tally.already += 1;
        else tally.other.set(outcome, (tally.other.get(outcome) ?? 0) + 1);
      }
    }),
  );
  return tally;
}

const doubleAdmissions = (tally: Tally) => [...tally.success.values()].filter((n) => n > 1).length;

describe.runIf(process.env.TEST_DB === 'pg')('doors racing on PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp();
    school = await eventSchool(t, 'Door Academy');
    const http = api(t.app);
    eventId = await createEvent(http, school.admin.token, 'Spring concert', school.types.ticketed);
    expectStatus(
      await http.post(`events/update?id=${eventId}`, school.admin.token, {
        usersPerSlot: 5000,
        ...OPEN_DOOR,
      }),
      200,
    );
    await createSection(http, school.admin.token, eventId, {
      date: daysAhead(7),
      start: '18:00',
      end: '21:00',
      location: 'Sports hall',
    });
    const staff = [];
    for (let i = 0; i < SCANNERS; i++) staff.push(await quickMember(t, school.admin.token, 'teacher'));
    expectStatus(
      await http.post(`events/update-can-scan-user-ids?id=${eventId}`, school.admin.token, {
        canScanUserIds: staff.map((member) => member.id),
      }),
      200,
    );
    scanners = staff.map((member) => member.token);
  }, 120_000);
  afterAll(() => t?.close());

  it(`${SCANNERS} scanners present the same ${TICKETS} tickets in different orders at once: ${TICKETS} admissions, the rest "Already Scanned", 0 5xx`, async () => {
    const codes = await seedTickets(t.db, TICKETS);
    const started = Date.now();
    const tally = await presentAll(ordersOf(codes), async (scanner, code) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/tickets/scan-ticket',
        headers: { authorization: `Bearer ${scanners[scanner]}` },
        payload: { ticketId: code, eventId, clientNonce: randomUUID(), deviceId: `door-${scanner}` },
      });
      if (response.statusCode !== 200) return response.statusCode;
      const { data } = response.json() as ScanTicketResponse;
      return data.success ? 'admitted' : data.alreadyScanned ? 'already' : 0;
    });
    console.info(
      `door race: ${SCANNERS * TICKETS} presentations in ${Date.now() - started} ms: ${tally.success.size} admitted, ${tally.already} already scanned, other ${JSON.stringify(Object.fromEntries(tally.other))}`,
    );
    expect(Object.fromEntries(tally.other)).toEqual({});
    expect(tally.success.size).toBe(TICKETS);
    expect(doubleAdmissions(tally)).toBe(0);
    expect(tally.already).toBe((SCANNERS - 1) * TICKETS);
    // The rows agree: every ticket scanned, one admit recorded each, the rest refused.
    const rows = await sql<{ admits: number; refused: number; scanned: number }>`
      select (select count(*)::int from ticket_scans where event_id = ${eventId} and action = 'admit') as admits,
             (select count(*)::int from ticket_scans where event_id = ${eventId} and action = 'refused') as refused,
             (select count(*)::int from tickets where event_id = ${eventId} and scanned_at is not null) as scanned`.execute(
      t.db,
    );
    expect(rows.rows[0]).toEqual({ admits: TICKETS, refused: (SCANNERS - 1) * TICKETS, scanned: TICKETS });
  }, 300_000);

  it('five doors presenting one ticket at the same instant, 100 times: one admission each', async () => {
    const codes = await seedTickets(t.db, 100);
    let admitted = 0;
    let already = 0;
    for (const code of codes) {
      const answers = await Promise.all(
        scanners.map((token) =>
          t.app.inject({
            method: 'POST',
            url: '/api/tickets/scan-ticket',
            headers: { authorization: `Bearer ${token}` },
            payload: { ticketId: code, eventId },
          }),
        ),
      );
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        const { data } = answer.json() as ScanTicketResponse;
        if (data.success) admitted += 1;
        else if (data.alreadyScanned) already += 1;
      }
    }
    expect({ admitted, already }).toEqual({ admitted: 100, already: 400 });
  }, 120_000);

  it('negative control: scanning as check-then-update (no conditional UPDATE) double-admits, and the count sees it', async () => {
    const codes = await seedTickets(t.db, 200);
    // The mistake the real path cannot make: read "not scanned", then mark it scanned unconditionally.
    const tally = await presentAll(ordersOf(codes), async (scanner, code) =>
      t.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('tickets')
          .select(['id', 'scanned_at'])
          .where('code', '=', code)
          .executeTakeFirstOrThrow();
        if (row.scanned_at !== null) return 'already';
        await sql`select pg_sleep(0.002)`.execute(trx); // the door's round trip between read and write
        await trx
          .updateTable('tickets')
          .set({ scanned_at: new Date(), scanned_by: null, scanned_device: `door-${scanner}` })
          .where('id', '=', row.id)
          .execute();
        return 'admitted';
      }),
    );
    console.info(
      `door race negative control: ${doubleAdmissions(tally)} of 200 tickets admitted more than once`,
    );
    expect(doubleAdmissions(tally)).toBeGreaterThan(0);
  }, 120_000);
});
