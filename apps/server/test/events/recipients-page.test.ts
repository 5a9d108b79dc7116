import { RECIPIENTS_PAGE_SIZE, type RecipientsPage } from '@parley/domain/event-lists';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFamilies } from '../concurrency/race-support';
import { type Api, api, expectStatus } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  createEvent,
  type EventSchool,
  eventSchool,
  expectListGuarded,
  recipientCountsOf,
  recipientsOf,
} from './events-helpers';

// events/recipients (issue 39, decision 035): the set-up page's recipients come a page at a time, searched
// on the server, with the counts of the whole list, so an evening of 20,000 families does not send them all.

const FAMILIES = 60;
let t: TestApp;
let http: Api;
let school: EventSchool;
let eventId: number;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  school = await eventSchool(t, 'Paging Academy');
  await seedFamilies(t.db, school.schoolId, FAMILIES);
  eventId = await createEvent(http, school.admin.token, 'Paged evening', school.types.booking);
  expectStatus(
    await http.post(`events/add-recipients?eventId=${eventId}&saveme=1`, school.admin.token, {
      all: 'parents',
    }),
    200,
  );
});
afterAll(() => t.close());

const names = (page: RecipientsPage) => page.items.map((item) => item.name);

describe('events/recipients', () => {
  it('comes a page at a time by name, with how many match; the whole list’s counts are their own call', async () => {
    const first = await recipientsOf(http, school.admin.token, eventId);
    const second = await recipientsOf(http, school.admin.token, eventId, { page: 2 });
    const beyond = await recipientsOf(http, school.admin.token, eventId, { page: 3 });
    expect(first.items).toHaveLength(RECIPIENTS_PAGE_SIZE);
    expect(second.items).toHaveLength(FAMILIES - RECIPIENTS_PAGE_SIZE);
    expect(beyond.items).toEqual([]);
    for (const page of [first, second, beyond])
      expect(page).toMatchObject({ total: FAMILIES, pageSize: RECIPIENTS_PAGE_SIZE });
    expect(await recipientCountsOf(http, school.admin.token, eventId)).toEqual({
      people: FAMILIES,
      bookedPeople: 0,
      notBookedFamilies: FAMILIES,
    });
    // By last name, then first name, any case: together, every recipient once.
    const all = [...names(first), ...names(second)];
    expect(all).toEqual([...all].sort((a, b) => a.localeCompare(b, 'en', { numeric: false })));
    expect(new Set([...first.items, ...second.items].map((item) => item.id)).size).toBe(FAMILIES);
  });

  it('searches names and emails on the server, any case, taking % and _ literally', async () => {
    // Family1 and Family10 to Family19.
    const byName = await recipientsOf(http, school.admin.token, eventId, { q: 'FAMILY1' });
    expect(byName.total).toBe(11);
    expect(names(byName)).toContain('Parent Family1');
    const byEmail = await recipientsOf(http, school.admin.token, eventId, { q: 'parent7.' });
    expect(names(byEmail)).toEqual(['Parent Family7']);
    for (const q of ['%', '_', '\\'])
      expect((await recipientsOf(http, school.admin.token, eventId, { q })).total, q).toBe(0);
    expect((await recipientsOf(http, school.admin.token, eventId, { q: '  family59  ' })).total).toBe(1);
  });

  it('refuses a bad page, filter or search naming the field, and is the school admin’s alone', async () => {
    await expectListGuarded(t, school, `events/recipients?eventId=${eventId}`, [
      ['page=0', 'page'],
      ['page=9223372036854775808', 'page'],
      ['notBooked=2', 'notBooked'],
      [`q=${'a'.repeat(101)}`, 'q'],
      ['q=a%00b', 'q'],
    ]);
    await expectListGuarded(t, school, `events/recipient-counts?eventId=${eventId}`, [
      ['eventId=0', 'eventId'],
    ]);
  });
});
