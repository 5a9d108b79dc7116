import { CSV_COLUMNS, TICKET_CSV_COLUMNS } from '@parley/domain/events';
import type { EventTicketResponse } from '@parley/domain/tickets';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  booked,
  type Evening,
  evening,
  type KindEvent,
  kindEvent,
  OPEN_DOOR,
} from '../booking/booking-helpers';
import { expectStatus } from '../directory/directory-helpers';
import { daysAhead } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';

// A ticketed event's bookings download (issue 36, point 10): the guests, the attendee's ticket, when (on
// the school's clock, in the app's style) and by whom it was scanned, and how many guests are in.

let t: TestApp;
let e: Evening;
let concert: KindEvent;

const csvRows = async (eventId: number) => {
  const res = await e.http.get(`events/download-bookings?eventId=${eventId}`, e.admin.token);
  expect(res.statusCode).toBe(200);
  return Papa.parse<string[]>(res.body.replace(/^\uFEFF/, '').trimEnd()).data;
};

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, timezone: 'Europe/London' });
  concert = await kindEvent(
    t,
    e,
    'ticketed',
    'Summer concert',
    { usersPerSlot: 100, guestAllowance: 2, ...OPEN_DOOR },
    [{ date: daysAhead(14), start: '18:30', end: '20:30', location: 'Theatre' }],
  );
  const slot = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', concert.eventId)
    .executeTakeFirstOrThrow();
  const [child, other] = [e.children[0], e.otherChild];
  if (!child) throw new Error('the evening has no child');
  await booked({ http: e.http, eventId: concert.eventId }, e.parent.token, [
    { slotId: slot.id, studentId: child.id, guests: 2 },
  ]);
  await booked({ http: e.http, eventId: concert.eventId }, e.otherParent.token, [
    { slotId: slot.id, studentId: other.id, guests: 0 },
  ]);
  // The child and one guest are in, scanned by the admin; the other family's child is still to come.
  const tickets = await e.http.get(
    `tickets/get-event-ticket?eventId=${concert.eventId}&userId=${child.id}`,
    e.admin.token,
  );
  for (const ticket of expectStatus<EventTicketResponse>(tickets, 200).data.tickets.slice(0, 2))
    expectStatus(
      await e.http.post('tickets/scan-ticket', e.admin.token, {
        ticketId: ticket.ticketId,
        eventId: concert.eventId,
      }),
      200,
    );
  // A summer instant: 18:05 UTC is 19:05 in London (BST).
  await t.db
    .updateTable('tickets')
    .set({ scanned_at: new Date('2026-07-03T18:05:00Z') })
    .where('event_id', '=', concert.eventId)
    .where('scanned_at', 'is not', null)
    .execute();
});
afterAll(() => t.close());

describe('the ticketed event’s CSV (issue 36)', () => {
  it('adds Guests, the ticket, when and by whom it was scanned, and guests admitted', async () => {
    const [header, ...rows] = await csvRows(concert.eventId);
    expect(header).toEqual([...CSV_COLUMNS, ...TICKET_CSV_COLUMNS]);
    const column = (row: string[] | undefined, name: string) => row?.[header?.indexOf(name) ?? -1];
    const child = rows.find(
      (row) => column(row, 'Student') === `${e.children[0]?.firstName} ${e.children[0]?.lastName}`,
    );
    const other = rows.find(
      (row) => column(row, 'Student') === `${e.otherChild.firstName} ${e.otherChild.lastName}`,
    );
    expect(rows).toHaveLength(2);
    expect(column(child, 'Guests')).toBe('2');
    expect(column(child, 'Ticket')).toBe('Admitted');
    expect(column(child, 'Scanned at')).toBe('Fri 3 Jul 2026, 19:05');
    // The school's first admin, as signed up in the test school.
    const admin = await t.db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', e.admin.id)
      .executeTakeFirstOrThrow();
    expect(column(child, 'Scanned by')).toBe(`${admin.first_name} ${admin.last_name}`);
    expect(column(child, 'Guests admitted')).toBe('1');
    expect(column(other, 'Guests')).toBe('0');
    expect(column(other, 'Ticket')).toBe('Not admitted');
    expect(column(other, 'Scanned at')).toBe('');
    expect(column(other, 'Scanned by')).toBe('');
    expect(column(other, 'Guests admitted')).toBe('0');
  });

  it('a parent-teacher evening keeps its columns', async () => {
    const [header] = await csvRows(e.eventId);
    expect(header).toEqual([...CSV_COLUMNS]);
  });
});
