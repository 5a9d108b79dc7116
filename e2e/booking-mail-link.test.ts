import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, screenshot } from './browser';
import { schoolThroughApi, uniqueEmail } from './journeys';
import { daysAhead } from './school-fixture';

const baseUrl = inject('baseUrl');

// Issue 36, point 2: the booking mail's "View or change your booking", opened logged out by a family with
// no password, opens their booking (it carries their personal link), not "Log in to book".
describe('the booking mail opens the booking', () => {
  let browser: Browser | undefined;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser) await screenshot(browser.page, 'failed-booking-mail-link');
    await browser?.close();
  });

  it('for a family without a password, in a fresh browser', async () => {
    const admin = await schoolThroughApi(baseUrl, 'Mail Link School');
    const ok = async <T>(response: Promise<Response>): Promise<T> => {
      const res = await response;
      const body = await res.text();
      expect(res.status, body).toBe(200);
      return JSON.parse(body) as T;
    };
    const post = <T>(path: string, body: unknown) => ok<T>(admin.post(path, body));
    const maths = await post<{ id: number }>('subjects/create', { name: 'Maths' });
    const teacher = await post<{ id: number }>('users/create-teacher', {
      email: uniqueEmail('mail.teacher'),
      firstName: 'Mina',
      lastName: 'Hall',
      subjectIds: [maths.id],
      sendInvite: false,
    });
    const parentEmail = uniqueEmail('mail.parent');
    const parent = await post<{ id: number }>('users/create-parent', {
      email: parentEmail,
      firstName: 'Pat',
      lastName: 'Rowe',
      sendInvite: false,
    });
    const child = await post<{ id: number }>('users/create-student', {
      email: uniqueEmail('mail.child'),
      firstName: 'Rosa',
      lastName: 'Rowe',
      parentIds: [parent.id],
      subjects: [{ subjectId: maths.id, teacherId: teacher.id }],
      sendInvite: false,
    });
    const { eventTypes } = await ok<{ eventTypes: Array<{ id: number; groupInt: number }> }>(
      admin.get('events/index'),
    );
    const { id: eventId } = await post<{ id: number }>('events/create', {
      name: 'Spring consultations',
      eventTypeId: eventTypes.find((type) => type.groupInt === 1)?.id,
    });
    await post(`events/update?id=${eventId}`, { status: 1, slotMinutes: 10 });
    await post(`events/create-section?eventId=${eventId}`, {
      date: daysAhead(5),
      start: '16:00',
      end: '17:00',
      location: 'Main hall',
      teachers: [{ teacherId: teacher.id }],
    });
    await post(`events/add-recipients?eventId=${eventId}&saveme=1`, { userIds: [parent.id] });
    await post(`message-types/send?eventId=${eventId}`, { messageTypeName: 'inviteToBook' });

    type Mail = { to: string; subject: string; links: string[] };
    // The outbox hands a mail to the dev mailbox a moment after its transaction.
    const newestMail = async (subject: string) => {
      let found: Mail | undefined;
      await expect
        .poll(async () => {
          const { items } = await ok<{ items: Mail[] }>(fetch(`${baseUrl}/api/dev/mailbox`));
          found = items.find((item) => item.to === parentEmail && item.subject.endsWith(subject));
          return found !== undefined;
        })
        .toBe(true);
      return new URL(found?.links[0] ?? '');
    };
    // The family books from the invitation's personal link (as the booking page would, through the API).
    const link =
      (await newestMail('book your place for Spring consultations')).searchParams.get('link') ?? '';
    const withLink = { 'x-booking-link': link, 'content-type': 'application/json' };
    const page = await ok<{ grid: Array<{ slots: Array<{ id: number; free: number }> }> }>(
      fetch(`${baseUrl}/api/events/booking-view?eventId=${eventId}`, { headers: withLink }),
    );
    const slotId = page.grid[0]?.slots.find((slot) => slot.free > 0)?.id;
    await ok(
      fetch(`${baseUrl}/api/events/update-slot-for-booking?id=${eventId}`, {
        method: 'POST',
        headers: withLink,
        body: JSON.stringify({
          items: [{ slotId, studentId: child.id, subjectId: maths.id }],
          idempotencyKey: crypto.randomUUID(),
        }),
      }),
    );

    // The confirmation's address, opened in a browser that has never seen the family.
    const mailed = await newestMail('Spring consultations: booking confirmed');
    expect(mailed.searchParams.get('link')).toBeTruthy();
    browser = await openBrowser(DESKTOP);
    await browser.page.goto(mailed.href);
    await expect
      .poll(() =>
        browser?.page
          .getByText(/^Booking as /)
          .first()
          .innerText(),
      )
      .toBe('Booking as Pat Rowe (from your invitation link)');
    const mine = browser.page
      .locator('.MuiCard-root', {
        has: browser.page.getByRole('heading', { name: 'My bookings', exact: true }),
      })
      .getByRole('listitem');
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.first().innerText()).toContain('Mina Hall');
    expect(await browser.page.getByText('Log in to book').count()).toBe(0);
    await screenshot(browser.page, 'booking-mail-link-opened');
  });
});
