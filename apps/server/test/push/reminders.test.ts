import { bookingPath } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueDueReminders, sendDuePush } from '../../src/push/push-worker';
import { vapidKeysOnce } from '../../src/push/vapid';
import { booked, bookingPage, type Evening, evening, freeSlots } from '../booking/booking-helpers';
import { expectStatus, type Member } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { type Browser, LOCAL_PUSH, type PushService, pushService } from './push-endpoint';

// The reminder the day before (issue 12): swept once a minute by the push worker, once per booking
// whatever the number of sweepers, one push per person and event, as each person's settings say.

const HOUR = 3_600_000;

describe('Web Push: the reminder the day before', () => {
  let t: TestApp;
  let service: PushService;
  let e: Evening;
  let keys: ReturnType<typeof vapidKeysOnce>;
  let parent: Browser;
  let teacher: Browser;
  let startsAt: Date;

  const decrypted = () =>
    service.received.map((request) => ({
      path: request.path,
      payload: (request.path === '/push/parent' ? parent : teacher).decrypt(request.body) as unknown,
    }));

  /** Books each [booker, child, teacher index] at its own time (the nth free slot, n = 2 × position). */
  async function bookEach(items: [Member, Member | undefined, number][], from = 0): Promise<number[]> {
    const ids: number[] = [];
    for (const [index, [booker, child, teacherIndex]] of items.entries()) {
      const page = await bookingPage(e, booker.token, e.code);
      const slotId = freeSlots(page.grid, e.teachers[teacherIndex]?.id ?? 0)[from + index * 2];
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
    e = await evening(t, { quick: true });
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

  it('is queued a day before the first booking, once, for the family and the teacher', async () => {
    // The parent meets two teachers; teacher 0 meets them and the other family.
    const ids = await bookEach([
      [e.parent, e.children[0], 0],
      [e.parent, e.children[0], 1],
      [e.otherParent, e.otherChild, 0],
    ]);
    await sendDuePush(t.db, keys, LOCAL_PUSH);
    service.received.length = 0;
    const rows = await t.db
      .selectFrom('bookings')
      .select('starts_at')
      .where('id', 'in', ids)
      .orderBy('starts_at')
      .execute();
    startsAt = new Date(rows[0]?.starts_at ?? 0);

    // More than a day ahead: nothing yet.
    expect(await queueDueReminders(t.db, new Date(startsAt.getTime() - 25 * HOUR))).toBe(0);
    // Within the day: the three bookings are reminded, in one push each for the parent and teacher 0.
    const now = new Date(startsAt.getTime() - 23 * HOUR);
    expect(await queueDueReminders(t.db, now)).toBe(3);
    expect(await queueDueReminders(t.db, now)).toBe(0);
    expect(await sendDuePush(t.db, keys, LOCAL_PUSH)).toBe(2);
    const pushes = decrypted().sort((x, y) => x.path.localeCompare(y.path));
    expect(pushes).toEqual([
      {
        path: '/push/parent',
        payload: {
          action: 'reminder',
          title: 'Year 9 consultations: reminder',
          body: expect.stringMatching(
            /^You have 2 bookings; the first on \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d\.$/,
          ),
          url: bookingPath(1, e.code),
        },
      },
      {
        path: '/push/teacher',
        payload: {
          action: 'reminder',
          title: 'Year 9 consultations: reminder',
          body: expect.stringMatching(/^You have 2 appointments; the first on /),
          url: `/event/details-teacher?eventId=${e.eventId}`,
        },
      },
    ]);
    // Later sweeps never remind again.
    expect(await queueDueReminders(t.db, new Date(startsAt.getTime() - HOUR))).toBe(0);
  });

  it('leaves out cancelled bookings, bookings made within the day, and people who turned reminders off', async () => {
    service.received.length = 0;
    const [cancelled, late, kept] = await bookEach(
      [
        [e.otherParent, e.otherChild, 1],
        [e.parent, e.children[0], 2],
        [e.parent, e.children[1], 3],
      ],
      6,
    );
    if (cancelled === undefined || late === undefined || kept === undefined) throw new Error('not booked');
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherParent.token, {
        bookingId: cancelled,
      }),
      200,
    );
    const row = await t.db
      .selectFrom('bookings')
      .select('starts_at')
      .where('id', '=', late)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('bookings')
      .set({ created_at: new Date(new Date(row.starts_at).getTime() - 2 * HOUR) } as never)
      .where('id', '=', late)
      .execute();
    expectStatus(
      await e.http.post('users/update-settings', e.teachers[0]?.token ?? '', { push: { reminders: false } }),
      200,
    );
    await sendDuePush(t.db, keys, LOCAL_PUSH);
    service.received.length = 0;

    expect(await queueDueReminders(t.db, new Date(startsAt.getTime() - 22 * HOUR))).toBe(1);
    expect(await sendDuePush(t.db, keys, LOCAL_PUSH)).toBe(1);
    expect(decrypted()).toEqual([
      {
        path: '/push/parent',
        payload: expect.objectContaining({
          action: 'reminder',
          body: expect.stringMatching(/^You are booked for /),
        }),
      },
    ]);
    const reminded = await t.db.selectFrom('booking_reminders').select('booking_id').execute();
    expect(reminded.map((r) => r.booking_id)).toContain(kept);
    expect(reminded.map((r) => r.booking_id)).not.toContain(cancelled);
    expect(reminded.map((r) => r.booking_id)).not.toContain(late);
  });
});

describe('Web Push: reminders swept by two instances at once', () => {
  it('remind each booking once', async () => {
    const t = await createTestApp();
    try {
      const e = await evening(t, { quick: true });
      const page = await bookingPage(e, e.parent.token, e.code);
      await booked(
        e,
        e.parent.token,
        (
          [
            [0, 0],
            [0, 1],
            [1, 3],
          ] as const
        ).map(([child, teacher], index) => ({
          slotId: freeSlots(page.grid, e.teachers[teacher]?.id ?? 0)[index * 2] ?? 0,
          studentId: e.children[child]?.id ?? 0,
          subjectId: e.subjects[teacher] ?? 0,
        })),
      );
      const first = await t.db
        .selectFrom('bookings')
        .select('starts_at')
        .orderBy('starts_at')
        .executeTakeFirstOrThrow();
      const now = new Date(new Date(first.starts_at).getTime() - 23 * HOUR);
      const counts = await Promise.all([1, 2, 3, 4].map(() => queueDueReminders(t.db, now)));
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(3);
      expect(await t.db.selectFrom('booking_reminders').select('booking_id').execute()).toHaveLength(3);
    } finally {
      await t.close();
    }
  });
});
