import { randomUUID } from 'node:crypto';
import type { BookingPage, BookingResult } from '@parley/domain/booking';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import { bookingPath } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueEventLinks } from '../../src/modules/tokens/tokens.repository';
import { expectStatus } from '../directory/directory-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { type Evening, evening, freeSlots } from './booking-helpers';

// The booking mail's "View or change your booking" (issue 36, point 2): for a family without a password
// it carries their personal booking link, so the mailed address opens their booking; a family with a
// password gets the booking page itself, whose log-in returns them to it.

let t: TestApp;
let e: Evening;
beforeAll(async () => {
  // Quick people have no password, as a family invited to book only by mail.
  t = await createTestApp();
  e = await evening(t, { quick: true, travelMinutes: 0 });
});
afterAll(() => t.close());

const withLink = (link: string, method: 'GET' | 'POST', path: string, payload?: Record<string, unknown>) =>
  t.app.inject({
    method,
    url: `/api/${path}`,
    headers: { 'x-booking-link': link },
    ...(payload && { payload }),
  });

/** The booking page's address in the family's newest mail. */
async function mailedAddress(email: string): Promise<URL> {
  const mail = await lastMailTo(t.db, email);
  expect(mail?.subject).toMatch(
    /^Year 9 consultations: (booking confirmed|booking changed|booking cancelled|your booking is confirmed)$/,
  );
  const url = new URL(mail?.links[0] ?? '');
  expect(url.pathname).toBe(bookingPath(EVENT_GROUPS.parentTeacher, e.code));
  return url;
}

/** The family's bookings as the mailed address opens them: its personal link, with no session. */
async function openedBy(url: URL): Promise<number[]> {
  const link = url.searchParams.get('link') ?? '';
  expect(link).not.toBe('');
  const page = expectStatus<BookingPage>(
    await withLink(link, 'GET', `events/booking-view?eventId=${e.eventId}`),
    200,
  );
  return page.bookings.map((booking) => booking.id);
}

describe('the booking mail opens the booking', () => {
  it('for a family who booked through their personal link', async () => {
    const link =
      (
        await issueEventLinks(t.db, { schoolId: e.schoolId, eventId: e.eventId, userIds: [e.otherParent.id] })
      ).get(e.otherParent.id) ?? '';
    const page = expectStatus<BookingPage>(
      await withLink(link, 'GET', `events/booking-view?eventId=${e.eventId}`),
      200,
    );
    const slotId = freeSlots(page.grid, e.teachers[0]?.id ?? 0)[0] ?? 0;
    const made = expectStatus<BookingResult>(
      await withLink(link, 'POST', `events/update-slot-for-booking?id=${e.eventId}`, {
        items: [{ slotId, studentId: e.otherChild.id, subjectId: e.subjects[0] }],
        idempotencyKey: randomUUID(),
      }),
      200,
    );
    expect(await openedBy(await mailedAddress(e.otherParent.email))).toEqual(made.created);
  });

  it('for a family without a password the school booked for, and when the school confirms it', async () => {
    const page = expectStatus<BookingPage>(
      await e.http.get(`events/booking-view?eventId=${e.eventId}`, e.parent.token),
      200,
    );
    const slotId = freeSlots(page.grid, e.teachers[1]?.id ?? 0)[2] ?? 0;
    const made = expectStatus<BookingResult>(
      await e.http.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
        slotId,
        parentId: e.parent.id,
        studentId: e.children[0]?.id,
      }),
      200,
    );
    expect(await openedBy(await mailedAddress(e.parent.email))).toEqual(made.created);
    expectStatus(
      await e.http.post(`events/confirm-booking?eventId=${e.eventId}`, e.admin.token, {
        bookingId: made.created[0],
      }),
      200,
    );
    expect(await openedBy(await mailedAddress(e.parent.email))).toEqual(made.created);
  });

  it('for a family with a password: the booking page itself, no personal link', async () => {
    await t.db.updateTable('users').set({ password_hash: 'set' }).where('id', '=', e.parent.id).execute();
    const page = expectStatus<BookingPage>(
      await e.http.get(`events/booking-view?eventId=${e.eventId}`, e.parent.token),
      200,
    );
    const slotId = freeSlots(page.grid, e.teachers[2]?.id ?? 0)[4] ?? 0;
    expectStatus(
      await e.http.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
        slotId,
        parentId: e.parent.id,
        studentId: e.children[0]?.id,
      }),
      200,
    );
    expect((await mailedAddress(e.parent.email)).search).toBe('');
  });

  it('in the mail of bookings cancelled because a teacher left: "Book again" opens the booking page', async () => {
    // The Maths teacher the other family booked in the first test leaves.
    const maths = e.teachers[0]?.id ?? 0;
    expectStatus(await e.http.post(`users/delete?id=${maths}&role=teacher`, e.admin.token), 200);
    const mail = await lastMailTo(t.db, e.otherParent.email);
    expect(mail?.subject).toBe('Year 9 consultations: your booking was cancelled');
    const url = new URL(mail?.links[0] ?? '');
    expect(url.pathname).toBe(bookingPath(EVENT_GROUPS.parentTeacher, e.code));
    expect(await openedBy(url)).toEqual([]);
  });
});
