import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../directory/directory-helpers';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { booked, bookingPage, type Evening, evening, freeSlots } from './booking-helpers';

// Who is mailed about a booking: the family always (unless they turned booking confirmations off), and a
// teacher when they opted in (settings) or the event asks for a mail per booking (its notification status).

let t: TestApp;
let e: Evening;
beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, travelMinutes: 0 });
});
afterAll(() => t.close());

const teacher = (i: number) => e.teachers[i] ?? e.parent;

async function bookWith(i: number, slotIndex: number) {
  const grid = (await bookingPage(e, e.parent.token, e.code)).grid;
  const slotId = freeSlots(grid, teacher(i).id)[slotIndex] ?? 0;
  return booked(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id }]);
}

describe('booking mails', () => {
  it('mails no teacher by default', async () => {
    const before = await mailCount(t.db, teacher(0).email);
    await bookWith(0, 0);
    expect(await mailCount(t.db, teacher(0).email)).toBe(before);
  });

  it('mails a teacher who opted in, per booking and per cancellation', async () => {
    expectStatus(
      await e.http.post('users/update-settings', teacher(1).token, {
        notifications: { bookingNotifications: true },
      }),
      200,
    );
    const before = await mailCount(t.db, teacher(1).email);
    const made = await bookWith(1, 3);
    expect(await mailCount(t.db, teacher(1).email)).toBe(before + 1);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', teacher(1).email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Year 9 consultations: new booking at 16:30');
    expect(mail.text_body).toContain(`${e.parent.firstName} ${e.parent.lastName}`);
    await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.parent.token, {
      bookingId: made.created[0],
    });
    expect(await mailCount(t.db, teacher(1).email)).toBe(before + 2);
  });

  it('mails every teacher of an event whose booking notifications are on', async () => {
    expectStatus(
      await e.http.post(`events/update-booking-notification-status?id=${e.eventId}`, e.admin.token, {
        bookingNotifications: true,
      }),
      200,
    );
    const before = await mailCount(t.db, teacher(2).email);
    await bookWith(2, 5);
    expect(await mailCount(t.db, teacher(2).email)).toBe(before + 1);
  });

  it('sends no confirmation to a family who turned booking confirmations off', async () => {
    expectStatus(
      await e.http.post('users/update-settings', e.parent.token, {
        notifications: { bookingConfirmations: false },
      }),
      200,
    );
    const before = await mailCount(t.db, e.parent.email);
    await bookWith(3, 7);
    expect(await mailCount(t.db, e.parent.email)).toBe(before);
  });
});
