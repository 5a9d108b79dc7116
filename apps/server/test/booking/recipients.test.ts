import type { BookingPage } from '@parley/domain/booking';
import { ACCESS_TEXT } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueEventLinks } from '../../src/modules/tokens/tokens.repository';
import { expectStatus, type Member } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  addRecipients,
  book,
  bookingPage,
  type Evening,
  evening,
  page,
  quickMember,
} from './booking-helpers';

// Issue 11: an event with recipients is open to them only (a parent recipient for their children, the
// parents of a student recipient for that child, a student recipient or a recipient's child for
// themselves); without recipients, to every family of the school. Admins booking for a family follow it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const first = (e: Evening) => e.children[0] as Member;
const second = (e: Evening) => e.children[1] as Member;
const teacher = (e: Evening, index: number) => e.teachers[index]?.id ?? 0;
/** A teacher's nth slot of the evening, straight from the table (the admin's page shows no family's columns). */
const slot = async (e: Evening, index: number, nth = 0) =>
  (
    await t.db
      .selectFrom('slots')
      .select('id')
      .where('event_id', '=', e.eventId)
      .where('teacher_id', '=', teacher(e, index))
      .orderBy('starts_at')
      .offset(nth)
      .limit(1)
      .executeTakeFirstOrThrow()
  ).id;
const item = async (e: Evening, child: Member, index: number, nth = 0) => ({
  slotId: await slot(e, index, nth),
  studentId: child.id,
  subjectId: e.subjects[index] ?? null,
});
const refusedAsNotOpen = (response: { statusCode: number; json(): unknown }) => {
  expect({ status: response.statusCode, body: response.json() }).toMatchObject({
    status: 403,
    body: { message: ACCESS_TEXT.notOpenToYou },
  });
};

describe('an event without recipients', () => {
  it('is open to every family of the school, as before', async () => {
    const e = await evening(t, { quick: true });
    expect((await page(e, e.otherParent.token, e.code)).statusCode).toBe(200);
    const booked = await book(e, e.otherParent.token, [await item(e, e.otherChild, 0)]);
    expect(booked.statusCode).toBe(200);
  });
});

describe('an event with recipients', () => {
  it('opens the page and the booking to a parent recipient, and refuses every call of a family left out', async () => {
    const e = await evening(t, { quick: true });
    await addRecipients(e, e.eventId, [e.parent.id]);
    const mine = await bookingPage(e, e.parent.token, e.code);
    expect(mine.children.map((child) => child.id).sort()).toEqual([first(e).id, second(e).id].sort());
    expect((await book(e, e.parent.token, [await item(e, first(e), 0)])).statusCode).toBe(200);

    const other = e.otherParent.token;
    refusedAsNotOpen(await page(e, other, e.code));
    refusedAsNotOpen(await e.http.get(`events/booking-view?eventId=${e.eventId}`, other));
    refusedAsNotOpen(await e.http.get(`events/user-slots-for-pt?eventId=${e.eventId}`, other));
    refusedAsNotOpen(
      await e.http.post('events/data-for-subject-teacher-selector', other, { eventId: e.eventId }),
    );
    refusedAsNotOpen(
      await e.http.post(`events/booking-data-for-student?eventId=${e.eventId}`, other, {
        studentId: e.otherChild.id,
      }),
    );
    refusedAsNotOpen(
      await e.http.post(`events/arrange-slots?eventId=${e.eventId}`, other, {
        items: [{ studentId: e.otherChild.id, teacherId: teacher(e, 0) }],
      }),
    );
    refusedAsNotOpen(await e.http.get(`events/calendar-file?eventId=${e.eventId}`, other));
    const refused = await book(e, other, [await item(e, e.otherChild, 1)]);
    refusedAsNotOpen(refused);
    const live = await t.db
      .selectFrom('bookings')
      .select('id')
      .where('event_id', '=', e.eventId)
      .where('parent_id', '=', e.otherParent.id)
      .execute();
    expect(live).toEqual([]);
    // The refused family's own child, signed in as a student, is left out too.
    refusedAsNotOpen(await page(e, e.otherChild.token, e.code));
  });

  it('opens it to the children of a parent recipient, who book for themselves', async () => {
    const e = await evening(t, { quick: true });
    await addRecipients(e, e.eventId, [e.parent.id]);
    const view = await bookingPage(e, first(e).token, e.code);
    expect(view.viewer).toMatchObject({ userId: first(e).id, bookAs: 'student' });
    const booked = await book(e, first(e).token, [{ ...(await item(e, first(e), 2)), studentId: null }]);
    expect(booked.statusCode).toBe(200);
  });

  it('opens it to the parent of a student recipient for that child only', async () => {
    const e = await evening(t, { quick: true });
    await addRecipients(e, e.eventId, [first(e).id]);
    const view = await bookingPage(e, e.parent.token, e.code);
    // The page offers only the child the event is open to.
    expect(view.children.map((child) => child.id)).toEqual([first(e).id]);
    expect((await book(e, e.parent.token, [await item(e, first(e), 0)])).statusCode).toBe(200);
    const sibling = await book(e, e.parent.token, [await item(e, second(e), 3)]);
    expect({ status: sibling.statusCode, body: sibling.json() }).toMatchObject({
      status: 422,
      body: { errors: { 'items.0.studentId': [ACCESS_TEXT.notOpenForChild] } },
    });
    const data = await e.http.post(`events/booking-data-for-student?eventId=${e.eventId}`, e.parent.token, {
      studentId: second(e).id,
    });
    expect({ status: data.statusCode, body: data.json() }).toMatchObject({
      status: 403,
      body: { message: ACCESS_TEXT.notOpenForChild },
    });
    // The student recipient books for themselves; the sibling, not on the list, is refused.
    expect((await page(e, first(e).token, e.code)).statusCode).toBe(200);
    refusedAsNotOpen(await page(e, second(e).token, e.code));
  });

  it('holds for an admin booking on a family’s behalf, and for the admin’s view of their grid', async () => {
    const e = await evening(t, { quick: true });
    await addRecipients(e, e.eventId, [e.parent.id]);
    const onBehalf = (parentId: number, studentId: number, slotId: number) =>
      e.http.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
        slotId,
        parentId,
        studentId,
      });
    refusedAsNotOpen(await onBehalf(e.otherParent.id, e.otherChild.id, await slot(e, 0)));
    refusedAsNotOpen(
      await e.http.get(
        `events/user-slots-for-pt?eventId=${e.eventId}&parentId=${e.otherParent.id}`,
        e.admin.token,
      ),
    );
    expectStatus(await onBehalf(e.parent.id, first(e).id, await slot(e, 0)), 200);
    // The admin still sees the page (no family of their own): staff may look.
    const preview = expectStatus<BookingPage>(await page(e, e.admin.token, e.code), 200);
    expect(preview.viewer).toBeNull();
  });

  it('an admin who is also a parent left out sees the page without booking as a parent', async () => {
    const e = await evening(t, { quick: true });
    await addRecipients(e, e.eventId, [e.parent.id]);
    await t.db
      .insertInto('user_roles')
      .values({ user_id: e.admin.id, school_id: e.schoolId, role: 'parent' })
      .execute();
    const preview = expectStatus<BookingPage>(await page(e, e.admin.token, e.code), 200);
    expect(preview.viewer).toBeNull();
    expect(preview.children).toEqual([]);
  });

  it('a family taken off the list loses the page and new bookings but may still cancel what it holds', async () => {
    const e = await evening(t, { quick: true });
    await addRecipients(e, e.eventId, [e.parent.id, e.otherParent.id]);
    const made = await book(e, e.otherParent.token, [await item(e, e.otherChild, 0)]);
    const bookingId = (made.json() as { created: number[] }).created[0];
    expectStatus(
      await e.http.post(`events/remove-recipient?eventId=${e.eventId}`, e.admin.token, {
        userId: e.otherParent.id,
      }),
      200,
    );
    refusedAsNotOpen(await page(e, e.otherParent.token, e.code));
    refusedAsNotOpen(await book(e, e.otherParent.token, [await item(e, e.otherChild, 1)]));
    const cancelled = await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherParent.token, {
      bookingId,
    });
    expect(cancelled.statusCode).toBe(200);
  });

  it('refuses a personal link of a family left out, as the family itself', async () => {
    const e = await evening(t, { quick: true });
    const stranger: Member = await quickMember(t, e.admin.token, 'parent', { studentIds: [e.otherChild.id] });
    await addRecipients(e, e.eventId, [e.parent.id]);
    const links = await issueEventLinks(t.db, {
      schoolId: e.schoolId,
      eventId: e.eventId,
      userIds: [e.parent.id, stranger.id],
    });
    const withLink = (userId: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/events/book-event?code=${e.code}`,
        headers: { 'x-booking-link': links.get(userId) ?? '' },
      });
    expect((await withLink(e.parent.id)).statusCode).toBe(200);
    refusedAsNotOpen(await withLink(stranger.id));
  });
});
