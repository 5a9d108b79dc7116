import { BOOKINGS_PAGE_SIZE, type EventBookingsPage } from '@parley/domain/event-lists';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFamilies } from '../concurrency/race-support';
import { type Api, api, expectStatus } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  bookingsOf,
  createEvent,
  createSection,
  type EventSchool,
  eventSchool,
  expectListGuarded,
  insertBooking,
} from './events-helpers';

// events/bookings (issue 39, decision 035): the set-up page's bookings come a page at a time in time order,
// searched on the server, so an evening of thousands of bookings does not send them all with the event.

const FAMILIES = 60;
let t: TestApp;
let http: Api;
let school: EventSchool;
let eventId: number;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  school = await eventSchool(t, 'Bookings Academy');
  const families = await seedFamilies(t.db, school.schoolId, FAMILIES);
  eventId = await createEvent(http, school.admin.token, 'Open morning', school.types.booking);
  const token = school.admin.token;
  expectStatus(
    await http.post(`events/update?id=${eventId}`, token, { slotMinutes: 10, usersPerSlot: 10 }),
    200,
  );
  await createSection(http, token, eventId, { date: '2030-05-02', start: '09:00', end: '10:00' });
  const slots = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', eventId)
    .orderBy('starts_at')
    .execute();
  expect(slots).toHaveLength(6);
  // Ten families a slot, in order: Family0–9 at 09:00, Family10–19 at 09:10, …
  const ids = [];
  for (const [index, family] of families.entries())
    ids.push(
      await insertBooking(t.db, slots[Math.floor(index / 10)]?.id ?? 0, { parentId: family.parentId }),
    );
  // The last two cancelled, as the admin's Remove does.
  for (const bookingId of ids.slice(-2))
    expectStatus(await http.post(`events/remove-booking?eventId=${eventId}`, token, { bookingId }), 200);
});
afterAll(() => t.close());

const parents = (page: EventBookingsPage) => page.items.map((item) => item.parentName);

describe('events/bookings', () => {
  it('comes a page at a time in time order: the live ones, or all with the cancelled', async () => {
    const first = await bookingsOf(http, school.admin.token, eventId, {});
    const second = await bookingsOf(http, school.admin.token, eventId, { page: 2 });
    expect(first).toMatchObject({ total: FAMILIES - 2, pageSize: BOOKINGS_PAGE_SIZE, cancelledCount: 2 });
    expect(first.items).toHaveLength(BOOKINGS_PAGE_SIZE);
    expect(second.items).toHaveLength(FAMILIES - 2 - BOOKINGS_PAGE_SIZE);
    const live = [...first.items, ...second.items];
    expect(live.every((item) => item.status === 'booked')).toBe(true);
    expect(live.map((item) => item.startsAt)).toEqual(live.map((item) => item.startsAt).sort());
    expect(first.items[0]).toMatchObject({
      timeLabel: 'Thu 2 May 2030, 09:00',
      parentName: 'Parent Family0',
    });
    expect(new Set(live.map((item) => item.id)).size).toBe(FAMILIES - 2);
    // Past the last page: no rows, and still how many there are.
    expect(await bookingsOf(http, school.admin.token, eventId, { page: 3 })).toMatchObject({
      items: [],
      total: FAMILIES - 2,
    });

    const all = await bookingsOf(http, school.admin.token, eventId, { cancelled: 1, page: 2 });
    expect(all.total).toBe(FAMILIES);
    expect(all.items.slice(-2).map((item) => [item.parentName, item.status])).toEqual([
      ['Parent Family58', 'cancelled'],
      ['Parent Family59', 'cancelled'],
    ]);
  });

  it('searches the teacher’s, parent’s and student’s names on the server, any case, taking % and _ literally', async () => {
    const found = await bookingsOf(http, school.admin.token, eventId, { q: 'FAMILY1' });
    expect(found.total).toBe(11);
    expect(parents(found)).toContain('Parent Family1');
    expect(parents(found)).toContain('Parent Family19');
    // A cancelled booking is found only with the cancelled.
    expect((await bookingsOf(http, school.admin.token, eventId, { q: 'family59' })).total).toBe(0);
    expect(
      (await bookingsOf(http, school.admin.token, eventId, { q: ' family59 ', cancelled: 1 })).total,
    ).toBe(1);
    for (const q of ['%', '_', '\\'])
      expect((await bookingsOf(http, school.admin.token, eventId, { q })).total, q).toBe(0);
  });

  it('refuses a bad page, filter or search naming the field, and is the school admin’s alone', async () => {
    await expectListGuarded(t, school, `events/bookings?eventId=${eventId}`, [
      ['page=0', 'page'],
      ['page=9223372036854775808', 'page'],
      ['cancelled=2', 'cancelled'],
      [`q=${'a'.repeat(101)}`, 'q'],
      ['q=a%00b', 'q'],
    ]);
  });
});
