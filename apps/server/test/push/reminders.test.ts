import { bookingPath } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueDayBeforeReminders } from '../../src/modules/reminders/day-before.service';
import { sendDuePush } from '../../src/push/push-worker';
import { vapidKeysOnce } from '../../src/push/vapid';
import { booked, bookingPage, type Evening, evening, freeSlots } from '../booking/booking-helpers';
import { expectStatus, type Member } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { type Browser, LOCAL_PUSH, type PushService, pushService } from './push-endpoint';

// The reminder the day before (issue 40): at the school's reminder time (18:00 in its zone by default),
// one mail and one push per person listing all their appointments of the next day; once, whatever the
// number of sweepers; never of a booking cancelled before. Each test sets its own clock (`now`).

const at = (iso: string) => new Date(iso);

describe('the day-before reminder, across the spring clock change', () => {
  let t: TestApp;
  let service: PushService;
  let e: Evening;
  let keys: ReturnType<typeof vapidKeysOnce>;
  let parent: Browser;
  let teacher: Browser;
  const sender = () => ({ product: t.config.appName, appUrl: t.config.appUrl });

  const decrypted = () =>
    service.received.map((request) => ({
      path: request.path,
      payload: (request.path === '/push/parent' ? parent : teacher).decrypt(request.body) as unknown,
    }));
  const reminderMails = () =>
    t.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('subject', 'like', 'Reminder for tomorrow%')
      .orderBy('id')
      .execute();

  /** Books each [booker, child, teacher index] at its own time (the nth free slot, n = 2 × position). */
  async function bookEach(items: [Member, Member | undefined, number][]): Promise<number[]> {
    const ids: number[] = [];
    for (const [index, [booker, child, teacherIndex]] of items.entries()) {
      const page = await bookingPage(e, booker.token, e.code);
      const slotId = freeSlots(page.grid, e.teachers[teacherIndex]?.id ?? 0)[index * 2];
      if (!slotId) throw new Error('no free slot');
      const result = await booked(e, booker.token, [
        { slotId, studentId: child?.id ?? 0, subjectId: e.subjects[teacherIndex] ?? 0 },
      ]);
      ids.push(...result.created);
    }
    return ids;
  }

  beforeAll(async () => {
    t = await createTestApp({ pushGuard: LOCAL_PUSH });
    service = await pushService();
    // Sunday 28 March 2027: British Summer Time starts at 01:00 that morning. The evening is 16:00–18:00
    // BST (15:00 UTC); the reminder goes at 18:00 GMT on the Saturday (18:00 UTC).
    e = await evening(t, { quick: true, timezone: 'Europe/London', date: '2027-03-28' });
    keys = vapidKeysOnce(t.db, t.config);
    parent = service.browser('parent');
    teacher = service.browser('teacher');
    for (const [token, browser] of [
      [e.parent.token, parent],
      [e.teachers[0]?.token ?? '', teacher],
    ] as const) {
      expectStatus(
        await e.http.post('user/push-subscription', token, {
          endpoint: browser.endpoint,
          keys: browser.keys,
        }),
        200,
      );
    }
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  it('goes at 18:00 on the school clock: one mail and one push per person, listing everything', async () => {
    // The parent meets two teachers for two children; teacher 0 meets them and the other family, whose
    // second booking is cancelled before the evening before.
    const [, , , cancelled] = await bookEach([
      [e.parent, e.children[0], 0],
      [e.parent, e.children[1], 3],
      [e.otherParent, e.otherChild, 0],
      [e.otherParent, e.otherChild, 1],
    ]);
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherParent.token, {
        bookingId: cancelled,
      }),
      200,
    );
    await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
    service.received.length = 0;
    await t.db.deleteFrom('mail_outbox').execute();

    // 17:59 in London (GMT, before the change): not yet.
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-03-27T17:59:00Z'))).toBe(0);
    // 18:00: the two families and the two teachers they meet; teacher 1's booking was cancelled.
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-03-27T18:00:00Z'))).toBe(4);
    // Later sweeps, that evening or in the night, remind nobody again.
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-03-27T18:01:00Z'))).toBe(0);
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-03-27T23:59:00Z'))).toBe(0);

    const mails = await reminderMails();
    expect(mails.map((mail) => mail.to_address).sort()).toEqual(
      [e.parent.email, e.otherParent.email, e.teachers[0]?.email, e.teachers[3]?.email].sort(),
    );
    for (const mail of mails) expect(mail.subject).toBe('Reminder for tomorrow, Sun 28 Mar 2027');
    const textOf = (who: Member | undefined) =>
      mails.find((mail) => mail.to_address === who?.email)?.text_body;
    // In BST, the evening's own clock: the first slot is 16:00, not 15:00.
    expect(textOf(e.parent)).toMatch(/16:00–16:10 Year 9 consultations: .+, for .+, Main hall\n16:20–16:30 /);
    expect(textOf(e.parent)).toContain(bookingPath(1, e.code));
    expect(textOf(e.teachers[0])).toMatch(
      /16:00–16:10 Year 9 consultations: with the family of .+, Main hall\n1\d:\d0–1\d:\d0 Year 9 consultations: with the family of /,
    );
    expect(textOf(e.teachers[0])).toContain(`/event/details-teacher?eventId=${e.eventId}`);
    // The other family's cancelled booking is not listed: one line only.
    expect(textOf(e.otherParent)?.match(/Year 9 consultations/g)).toHaveLength(1);

    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(2);
    expect(decrypted().sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      {
        path: '/push/parent',
        payload: {
          action: 'reminder',
          title: 'Tomorrow: 2 appointments',
          body: expect.stringMatching(/^16:00–16:10 Year 9 consultations: .+ \(and 1 more\)$/),
          url: bookingPath(1, e.code),
        },
      },
      {
        path: '/push/teacher',
        payload: {
          action: 'reminder',
          title: 'Tomorrow: 2 appointments',
          body: expect.stringMatching(
            /^16:00–16:10 Year 9 consultations: with the family of .+ \(and 1 more\)$/,
          ),
          url: `/event/details-teacher?eventId=${e.eventId}`,
        },
      },
    ]);
  });

  it('sweepers at once remind each person once', async () => {
    await t.db.deleteFrom('day_before_reminders').execute();
    await t.db.deleteFrom('mail_outbox').execute();
    const now = at('2027-03-27T18:05:00Z');
    const counts = await Promise.all([1, 2, 3, 4].map(() => queueDayBeforeReminders(t.db, sender(), now)));
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(4);
    expect(await reminderMails()).toHaveLength(4);
  });
});

describe('the day-before reminder, across the autumn clock change, at the school’s own time', () => {
  let t: TestApp;
  let e: Evening;
  beforeAll(async () => {
    t = await createTestApp();
    // Sunday 31 October 2027: GMT again from 02:00. The Saturday is still BST: 18:00 there is 17:00 UTC.
    e = await evening(t, { quick: true, timezone: 'Europe/London', date: '2027-10-31' });
  });
  afterAll(() => t.close());
  const sender = () => ({ product: t.config.appName, appUrl: t.config.appUrl });

  it('goes at 18:00 BST the day before an evening in GMT, and at the time the school sets', async () => {
    await booked(e, e.parent.token, [
      {
        slotId:
          freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, e.teachers[0]?.id ?? 0)[0] ?? 0,
        studentId: e.children[0]?.id ?? 0,
        subjectId: e.subjects[0] ?? 0,
      },
    ]);
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-10-30T16:59:00Z'))).toBe(0);
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-10-30T17:00:00Z'))).toBe(2);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', e.parent.email)
      .where('subject', '=', 'Reminder for tomorrow, Sun 31 Oct 2027')
      .executeTakeFirstOrThrow();
    // 16:00 GMT on the Sunday.
    expect(mail.text_body).toMatch(/16:00–16:10 Year 9 consultations/);

    // The school sends them at 07:30 instead: the next sweep before then sends nothing.
    await t.db.deleteFrom('day_before_reminders').execute();
    expectStatus(
      await e.http.post('site/update-school', e.admin.token, {
        name: 'Booking Academy',
        timezone: 'Europe/London',
        reminderTime: '07:30',
      }),
      200,
    );
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-10-30T06:29:00Z'))).toBe(0);
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-10-30T06:30:00Z'))).toBe(2);
  });

  it('mails nobody who turned reminder mails off', async () => {
    await t.db.deleteFrom('day_before_reminders').execute();
    await t.db.deleteFrom('mail_outbox').execute();
    expectStatus(
      await e.http.post('users/update-settings', e.parent.token, {
        notifications: { eventReminders: false },
      }),
      200,
    );
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-10-30T17:00:00Z'))).toBe(2);
    const mails = await t.db.selectFrom('mail_outbox').select('to_address').execute();
    expect(mails.map((mail) => mail.to_address)).toEqual([e.teachers[0]?.email]);
  });

  it('is not sent for an event that turned it off', async () => {
    await t.db.deleteFrom('day_before_reminders').execute();
    expectStatus(
      await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { dayBeforeReminder: false }),
      200,
    );
    expect(await queueDayBeforeReminders(t.db, sender(), at('2027-10-30T17:00:00Z'))).toBe(0);
  });
});
