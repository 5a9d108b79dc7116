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

  it('mails a teacher once for siblings booked together, and once for a move, naming all of it', async () => {
    // The event's booking notifications are on (above): the Maths teacher both children have is mailed.
    const maths = teacher(0);
    const both = (slotId: number) =>
      e.children.map((child) => ({ slotId, studentId: child.id, subjectId: e.subjects[0] }));
    // One appointment per family with a teacher: the first test's goes first.
    const page = await bookingPage(e, e.parent.token, e.code);
    for (const mine of page.bookings.filter((b) => b.teacherId === maths.id))
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.parent.token, { bookingId: mine.id });
    // Past every other appointment the earlier tests made.
    const at = (time: string) =>
      page.grid.flatMap((g) => (g.teacherId === maths.id ? g.slots : [])).find((s) => s.time === time)?.id;
    const [from, to] = [at('17:20'), at('17:40')];
    const lastMail = () =>
      t.db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', maths.email)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
    const before = await mailCount(t.db, maths.email);
    const made = await booked(e, e.parent.token, both(from ?? 0));
    expect(made.created).toHaveLength(2);
    expect(await mailCount(t.db, maths.email)).toBe(before + 1);
    const booking = await lastMail();
    expect(booking.subject).toBe('Year 9 consultations: new booking at 17:20');
    for (const child of e.children) expect(booking.text_body).toContain(child.firstName);

    const familyBefore = await mailCount(t.db, e.parent.email);
    const moved = await booked(e, e.parent.token, both(to ?? 0), { cancelBookingIds: made.created });
    expect(await mailCount(t.db, maths.email)).toBe(before + 2);
    const move = await lastMail();
    expect(move.subject).toBe('Year 9 consultations: booking moved from 17:20 to 17:40');
    expect(move.text_body).toContain('Booking moved from 17:20 to 17:40.');
    for (const child of e.children) expect(move.text_body).toContain(child.firstName);
    // The family's confirmations are off (above): their own mail is the last test's concern.
    expect(await mailCount(t.db, e.parent.email)).toBe(familyBefore);

    // The school confirming it tells the family; the teacher heard of it when it was booked.
    expectStatus(
      await e.http.post(`events/confirm-booking?eventId=${e.eventId}`, e.admin.token, {
        bookingId: moved.created[0],
      }),
      200,
    );
    expect(await mailCount(t.db, maths.email)).toBe(before + 2);
  });
});
