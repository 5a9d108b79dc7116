import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingConflict,
  type BookingPage,
  type BookingResult,
} from '@parley/domain/booking';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../directory/directory-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { book, booked, bookingPage, type Evening, evening, freeSlots, page } from './booking-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function parentPage(e: Evening): Promise<BookingPage> {
  return bookingPage(e, e.parent.token, e.code);
}

describe('events/book-event', () => {
  let e: Evening;
  beforeAll(async () => {
    e = await evening(t);
  });

  it('gives a parent the event, their children with their teachers (pre-filled), the grid and no bookings', async () => {
    const body = await parentPage(e);
    expect(body.event).toMatchObject({
      id: e.eventId,
      name: 'Year 9 consultations',
      eventTypeGroupInt: 1,
      subscriberName: 'Booking Academy',
      isOpen: true,
      closedReason: null,
      bookingPath: `/book/ptevent/${e.code}`,
    });
    expect(body.event.sectionTimeLabels[0]).toMatch(/16:00 – 18:00$/);
    expect(body.viewer).toMatchObject({ userId: e.parent.id, bookAs: 'parent', viaLink: false });
    expect(body.studentId).toBeNull();
    expect(body.children.map((child) => child.id)).toEqual(
      expect.arrayContaining(e.children.map((child) => child.id)),
    );
    const first = body.children.find((child) => child.id === e.children[0]?.id);
    expect(first?.teachers.map((teacher) => teacher.teacherName)).toHaveLength(3);
    expect(first?.teachers.every((teacher) => teacher.inEvent)).toBe(true);
    expect(body.teachers).toHaveLength(4);
    // The grid holds the children's teachers (all four here), 12 slots each, all free.
    expect(body.grid).toHaveLength(4);
    expect(body.grid[0]?.slots).toHaveLength(12);
    expect(body.grid[0]?.slots[0]).toMatchObject({
      time: '16:00',
      endTime: '16:10',
      free: 1,
      myBookingId: null,
    });
    expect(body.bookings).toEqual([]);
  });

  it('shows the event to a visitor with no session, without personal data', async () => {
    const body = expectStatus<BookingPage>(await page(e, undefined, e.code), 200);
    expect(body.viewer).toBeNull();
    expect(body.children).toEqual([]);
    expect(body.bookings).toEqual([]);
    expect(body.event.name).toBe('Year 9 consultations');
  });

  it('answers an unknown code 404 and a disabled event 409 with the spec notice', async () => {
    expect(expectStatus(await page(e, e.parent.token, 'NOPE123456'), 404)).toEqual({
      message: BOOKING_TEXT.badCode,
    });
    expectStatus(await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { status: 0 }), 200);
    expect(expectStatus(await page(e, e.parent.token, e.code), 409)).toEqual({
      message: BOOKING_STATE_TEXT.notTakingBookings,
    });
    expectStatus(await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { status: 1 }), 200);
  });

  it("gives a student themselves as studentId and another school's user no viewer", async () => {
    const student = await bookingPage(e, e.children[0]?.token ?? '', e.code);
    expect(student.studentId).toBe(e.children[0]?.id);
    expect(student.viewer?.bookAs).toBe('student');
    const other = await evening(t);
    const stranger = await bookingPage(e, other.parent.token, e.code);
    expect(stranger.viewer).toBeNull();
    expect(stranger.children).toEqual([]);
  });
});

describe('events/update-slot-for-booking', () => {
  let e: Evening;
  beforeAll(async () => {
    e = await evening(t, { travelMinutes: 0 });
  });

  it('books a slot for a child, counts it, mails the family a confirmation with an .ics, and shows it as mine', async () => {
    const grid = (await parentPage(e)).grid;
    const maths = e.teachers[0]?.id ?? 0;
    const slotId = freeSlots(grid, maths)[0] ?? 0;
    const result = await booked(e, e.parent.token, [
      { slotId, studentId: e.children[0]?.id, subjectId: e.subjects[0] },
    ]);
    expect(result.message).toBe(BOOKING_TEXT.booked);
    expect(result.created).toHaveLength(1);
    expect(result.bookings[0]).toMatchObject({
      slotId,
      teacherId: maths,
      studentId: e.children[0]?.id,
      subjectName: 'Maths',
      time: '16:00',
      location: 'Main hall',
      status: 'booked',
    });
    const slot = await t.db
      .selectFrom('slots')
      .select('booked_count')
      .where('id', '=', slotId)
      .executeTakeFirstOrThrow();
    expect(slot.booked_count).toBe(1);
    const mail = await lastMailTo(t.db, e.parent.email);
    expect(mail?.subject).toBe('Year 9 consultations: booking confirmed');
    expect(mail?.text_body).toContain('16:00 – 16:10');
    expect(mail?.attachments[0]?.filename).toMatch(/\.ics$/);
    expect(mail?.attachments[0]?.content).toContain('BEGIN:VEVENT');
    const again = await parentPage(e);
    const mine = again.grid.flatMap((group) => group.slots).find((s) => s.id === slotId);
    expect(mine).toMatchObject({ free: 0, myBookingId: result.created[0] });
  });

  it('refuses a second slot with the same teacher for the same parent (one slot per parent per teacher)', async () => {
    const grid = (await parentPage(e)).grid;
    const maths = e.teachers[0]?.id ?? 0;
    const slotId = freeSlots(grid, maths)[3] ?? 0;
    const res = await book(e, e.parent.token, [{ slotId, studentId: e.children[1]?.id }]);
    const body = expectStatus<BookingConflict>(res, 409);
    expect(body.message).toBe(BOOKING_TEXT.sameTeacher);
    expect(body.grid?.length).toBeGreaterThan(0);
  });

  it('books siblings into one shared slot in one request (one idempotency key)', async () => {
    const e2 = await evening(t);
    const grid = (await parentPage(e2)).grid;
    const slotId = freeSlots(grid, e2.teachers[0]?.id ?? 0)[2] ?? 0;
    const both = await booked(e2, e2.parent.token, [
      { slotId, studentId: e2.children[0]?.id, subjectId: e2.subjects[0] },
      { slotId, studentId: e2.children[1]?.id, subjectId: e2.subjects[0] },
    ]);
    expect(both.created).toHaveLength(2);
    const slot = await t.db
      .selectFrom('slots')
      .select('booked_count')
      .where('id', '=', slotId)
      .executeTakeFirstOrThrow();
    expect(slot.booked_count).toBe(1);
  });

  it('lets siblings share one appointment with a teacher they both have', async () => {
    const mine = (await parentPage(e)).bookings;
    const shared = mine[0];
    const result = await booked(e, e.parent.token, [
      { slotId: shared?.slotId ?? 0, studentId: e.children[1]?.id, subjectId: e.subjects[0] },
    ]);
    expect(result.bookings.filter((b) => b.slotId === shared?.slotId)).toHaveLength(2);
    const slot = await t.db
      .selectFrom('slots')
      .select('booked_count')
      .where('id', '=', shared?.slotId ?? 0)
      .executeTakeFirstOrThrow();
    expect(slot.booked_count).toBe(1);
  });

  it('refuses an overlapping appointment for the same family, and a full slot with the fresh grid', async () => {
    const grid = (await parentPage(e)).grid;
    const english = e.teachers[1]?.id ?? 0;
    const at1600 = grid.find((g) => g.teacherId === english)?.slots[0]?.id ?? 0;
    const overlap = expectStatus<BookingConflict>(
      await book(e, e.parent.token, [{ slotId: at1600, studentId: e.children[0]?.id }]),
      409,
    );
    expect(overlap.message).toBe(BOOKING_TEXT.overlap);
    // Another family takes a slot; this parent then asks for it.
    const taken = freeSlots(grid, english)[2] ?? 0;
    await booked(e, e.otherParent.token, [{ slotId: taken, studentId: e.otherChild.id }]);
    const lost = expectStatus<BookingConflict>(
      await book(e, e.parent.token, [{ slotId: taken, studentId: e.children[0]?.id }]),
      409,
    );
    expect(lost.message).toBe(BOOKING_TEXT.slotTaken);
    const fresh = lost.grid?.flatMap((group) => group.slots).find((slot) => slot.id === taken);
    expect(fresh?.free).toBe(0);
  });

  it('answers a lost race with the whole columns of the teacher asked for and of those the family holds', async () => {
    const e2 = await evening(t);
    const [maths, english, science] = e2.teachers.map((teacher) => teacher.id);
    const start = await bookingPage(e2, e2.parent.token, e2.code);
    await booked(e2, e2.parent.token, [
      { slotId: freeSlots(start.grid, maths ?? 0)[0] ?? 0, studentId: e2.children[0]?.id },
      { slotId: freeSlots(start.grid, science ?? 0)[3] ?? 0, studentId: e2.children[1]?.id },
    ]);
    const taken = freeSlots(start.grid, english ?? 0)[6] ?? 0;
    await booked(e2, e2.otherParent.token, [{ slotId: taken, studentId: e2.otherChild.id }]);
    const lost = expectStatus<BookingConflict>(
      await book(e2, e2.parent.token, [{ slotId: taken, studentId: e2.children[0]?.id }]),
      409,
    );
    expect(lost.message).toBe(BOOKING_TEXT.slotTaken);
    const columns = (grid: BookingPage['grid']) =>
      grid.map((group) => ({ teacherId: group.teacherId, slots: group.slots.map((slot) => slot.id) }));
    const now = await bookingPage(e2, e2.parent.token, e2.code);
    // Exactly those columns, each whole and as the page shows it: no other teacher's, no slot left out.
    const inQuestion = new Set([maths, english, science]);
    expect(e2.teachers.length).toBeGreaterThan(inQuestion.size);
    expect(columns(lost.grid ?? [])).toEqual(
      columns(now.grid.filter((group) => inQuestion.has(group.teacherId ?? 0))),
    );
    expect(lost.bookings).toEqual(now.bookings);
  });

  it('changes a time in one request (the old place is freed) and cancels, telling the family each time', async () => {
    const before = await parentPage(e);
    const science = e.teachers[2]?.id ?? 0;
    const [first, second] = freeSlots(before.grid, science).slice(4);
    const made = await booked(e, e.parent.token, [{ slotId: first ?? 0, studentId: e.children[0]?.id }]);
    const bookingId = made.created[0] ?? 0;
    const changed = await booked(e, e.parent.token, [{ slotId: second ?? 0, studentId: e.children[0]?.id }], {
      cancelBookingIds: [bookingId],
    });
    expect(changed.message).toBe(BOOKING_TEXT.changed);
    expect(changed.bookings.some((b) => b.id === bookingId)).toBe(false);
    expect((await lastMailTo(t.db, e.parent.email))?.subject).toBe('Year 9 consultations: booking changed');
    const counts = await t.db
      .selectFrom('slots')
      .select(['id', 'booked_count'])
      .where('id', 'in', [first ?? 0, second ?? 0])
      .orderBy('id')
      .execute();
    expect(counts.map((row) => row.booked_count)).toEqual([0, 1]);
    const cancelled = expectStatus<BookingResult>(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.parent.token, {
        bookingId: changed.created[0],
      }),
      200,
    );
    expect(cancelled.message).toBe(BOOKING_TEXT.cancelled);
    const mail = await lastMailTo(t.db, e.parent.email);
    expect(mail?.subject).toBe('Year 9 consultations: booking cancelled');
    expect(mail?.attachments[0]?.content).toContain('STATUS:CANCELLED');
  });

  it('replays a retried request (same idempotency key) without booking twice', async () => {
    const grid = (await parentPage(e)).grid;
    const art = e.teachers[3]?.id ?? 0;
    const slotId = freeSlots(grid, art)[5] ?? 0;
    const key = 'retry-key-0001';
    const first = await booked(e, e.parent.token, [{ slotId, studentId: e.children[1]?.id }], {
      idempotencyKey: key,
    });
    const second = await booked(e, e.parent.token, [{ slotId, studentId: e.children[1]?.id }], {
      idempotencyKey: key,
    });
    expect(second.message).toBe(BOOKING_STATE_TEXT.replayed);
    expect(second.created).toEqual(first.created);
    const rows = await t.db.selectFrom('bookings').select('id').where('slot_id', '=', slotId).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a child who is not the parent’s, a slot of another event, and bad input with field errors', async () => {
    const grid = (await parentPage(e)).grid;
    const slotId = freeSlots(grid, e.teachers[1]?.id ?? 0)[8] ?? 0;
    const notMine = expectStatus<{ errors: Record<string, string[]> }>(
      await book(e, e.parent.token, [{ slotId, studentId: e.otherChild.id }]),
      422,
    );
    expect(notMine.errors['items.0.studentId']).toEqual([BOOKING_TEXT.notYourChild]);
    const other = await evening(t);
    const foreign = freeSlots(
      (await bookingPage(other, other.parent.token, other.code)).grid,
      other.teachers[0]?.id ?? 0,
    )[0];
    const wrong = expectStatus<{ errors: Record<string, string[]> }>(
      await book(e, e.parent.token, [{ slotId: foreign ?? 0, studentId: e.children[0]?.id }]),
      422,
    );
    expect(wrong.errors['items.0.slotId']).toEqual([BOOKING_TEXT.slotNotInEvent]);
    const empty = expectStatus<{ errors: Record<string, string[]> }>(
      await e.http.post(`events/update-slot-for-booking?id=${e.eventId}`, e.parent.token, {
        items: [],
        idempotencyKey: 'short',
      }),
      422,
    );
    expect(Object.keys(empty.errors)).toEqual(expect.arrayContaining(['idempotencyKey']));
  });

  it('needs a session or a personal link, and a parent or student role', async () => {
    const res = await e.http.post(`events/update-slot-for-booking?id=${e.eventId}`, undefined, {
      items: [{ slotId: 1 }],
      idempotencyKey: 'no-session-key',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: BOOKING_TEXT.loginToBook });
    const teacher = await book(e, e.teachers[0]?.token ?? '', [{ slotId: 1 }]);
    expect(teacher.statusCode).toBe(403);
  });
});

describe('booking rules of the event', () => {
  it('keeps the travel gap between appointments and each child’s limit', async () => {
    const e = await evening(t, { travelMinutes: 10, maxAppointmentsPerChild: 2 });
    const grid = (await parentPage(e)).grid;
    const column = (i: number) => grid.find((g) => g.teacherId === e.teachers[i]?.id)?.slots ?? [];
    const child = e.children[0]?.id;
    await booked(e, e.parent.token, [{ slotId: column(0)[0]?.id ?? 0, studentId: child }]);
    const tooClose = expectStatus<BookingConflict>(
      await book(e, e.parent.token, [{ slotId: column(1)[1]?.id ?? 0, studentId: child }]),
      409,
    );
    expect(tooClose.message).toBe(BOOKING_TEXT.travelGap(10));
    await booked(e, e.parent.token, [{ slotId: column(1)[2]?.id ?? 0, studentId: child }]);
    const third = expectStatus<BookingConflict>(
      await book(e, e.parent.token, [{ slotId: column(2)[5]?.id ?? 0, studentId: child }]),
      409,
    );
    expect(third.message).toBe(BOOKING_TEXT.childLimit(2));
  });

  it('refuses booking before the window opens and after it closes', async () => {
    const e = await evening(t);
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    expectStatus(
      await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { opensAt: inAnHour }),
      200,
    );
    const body = await parentPage(e);
    expect(body.event.isOpen).toBe(false);
    expect(body.event.closedReason).toMatch(/^Bookings open on /);
    const slotId = freeSlots(body.grid, e.teachers[0]?.id ?? 0)[0] ?? 0;
    const early = expectStatus<BookingConflict>(
      await book(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id }]),
      409,
    );
    expect(early.message).toBe(body.event.closedReason);
  });
});

describe('arrange for me', () => {
  it('proposes the most compact schedule of the chosen teachers within the window, then books it', async () => {
    const e = await evening(t, { travelMinutes: 0 });
    const [c1, c2] = e.children;
    const items = [
      { studentId: c1?.id ?? 0, teacherId: e.teachers[0]?.id ?? 0, subjectId: e.subjects[0] ?? null },
      // Both children see the Maths teacher: one shared appointment.
      { studentId: c2?.id ?? 0, teacherId: e.teachers[0]?.id ?? 0, subjectId: e.subjects[0] ?? null },
      { studentId: c1?.id ?? 0, teacherId: e.teachers[1]?.id ?? 0, subjectId: e.subjects[1] ?? null },
      { studentId: c1?.id ?? 0, teacherId: e.teachers[2]?.id ?? 0, subjectId: e.subjects[2] ?? null },
      { studentId: c2?.id ?? 0, teacherId: e.teachers[3]?.id ?? 0, subjectId: e.subjects[3] ?? null },
    ];
    type Proposed = { slotId: number; studentId: number; subjectId: number | null; time: string };
    const proposal = expectStatus<{ items: Proposed[]; message: string }>(
      await e.http.post(`events/arrange-slots?eventId=${e.eventId}`, e.parent.token, {
        items,
        earliest: '17:00',
        latest: '18:00',
      }),
      200,
    );
    expect(proposal.message).toBe(BOOKING_TEXT.arranged);
    expect(proposal.items.map((item) => item.time)).toEqual(['17:00', '17:00', '17:10', '17:20', '17:30']);
    const result = await booked(
      e,
      e.parent.token,
      proposal.items.map(({ slotId, studentId, subjectId }) => ({ slotId, studentId, subjectId })),
    );
    expect(result.bookings).toHaveLength(5);
    const none = expectStatus<{ message: string }>(
      await e.http.post(`events/arrange-slots?eventId=${e.eventId}`, e.otherParent.token, {
        items: [{ studentId: e.otherChild.id, teacherId: e.teachers[0]?.id ?? 0 }],
        earliest: '17:00',
        latest: '17:10',
      }),
      409,
    );
    expect(none.message).toBe(BOOKING_STATE_TEXT.noArrangement);
  });
});

describe('personal booking link', () => {
  it('lets an invited parent without a password book from the link in their mail, for that event only', async () => {
    const e = await evening(t);
    const http = e.http;
    expectStatus(
      await http.post(`events/add-recipients?eventId=${e.eventId}&saveme=1`, e.admin.token, {
        userIds: [e.otherParent.id],
      }),
      200,
    );
    expectStatus(
      await http.post(`message-types/send?eventId=${e.eventId}`, e.admin.token, {
        messageTypeName: 'inviteToBook',
      }),
      200,
    );
    const mail = await lastMailTo(t.db, e.otherParent.email);
    const url = new URL(mail?.links[0] ?? '');
    expect(url.pathname).toBe(`/book/ptevent/${e.code}`);
    const link = url.searchParams.get('link') ?? '';
    expect(link.length).toBeGreaterThan(20);
    const withLink = (path: string, method: 'GET' | 'POST', payload?: unknown) =>
      t.app.inject({
        method,
        url: `/api/${path}`,
        headers: { 'x-booking-link': link },
        ...(payload ? { payload: payload as object } : {}),
      });
    const view = (await withLink(`events/book-event?code=${e.code}`, 'GET')).json() as BookingPage;
    expect(view.viewer).toMatchObject({ userId: e.otherParent.id, viaLink: true, bookAs: 'parent' });
    const slotId = freeSlots(view.grid, e.teachers[0]?.id ?? 0)[0] ?? 0;
    const res = await withLink(`events/update-slot-for-booking?id=${e.eventId}`, 'POST', {
      items: [{ slotId, studentId: e.otherChild.id }],
      idempotencyKey: 'link-booking-1',
    });
    expect(res.statusCode).toBe(200);
    // The link opens nothing else: not another event, not the rest of the app.
    const other = await evening(t);
    const elsewhere = (await withLink(`events/book-event?code=${other.code}`, 'GET')).json() as BookingPage;
    expect(elsewhere.viewer).toBeNull();
    expect((await withLink('users/data', 'GET')).statusCode).toBe(401);
  });
});

describe('admin booking actions', () => {
  it('books for a family, moves the booking, confirms it and removes it; the family is mailed', async () => {
    const e = await evening(t);
    const grid = (await parentPage(e)).grid;
    const [a, b] = freeSlots(grid, e.teachers[0]?.id ?? 0);
    const made = expectStatus<BookingResult>(
      await e.http.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
        slotId: a,
        parentId: e.parent.id,
        studentId: e.children[0]?.id,
      }),
      200,
    );
    const bookingId = made.created[0] ?? 0;
    const moved = expectStatus<BookingResult>(
      await e.http.post(`events/update-slot-by-admin?id=${e.eventId}`, e.admin.token, {
        bookingId,
        slotId: b,
      }),
      200,
    );
    expect(moved.bookings.map((x) => x.slotId)).toEqual([b]);
    const confirmed = expectStatus<BookingResult>(
      await e.http.post(`events/confirm-booking?eventId=${e.eventId}`, e.admin.token, {
        bookingId: moved.created[0],
      }),
      200,
    );
    expect(confirmed.bookings[0]?.confirmed).toBe(true);
    expect((await lastMailTo(t.db, e.parent.email))?.subject).toBe(
      'Year 9 consultations: your booking is confirmed',
    );
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.admin.token, {
        bookingId: moved.created[0],
      }),
      200,
    );
    expect((await lastMailTo(t.db, e.parent.email))?.subject).toBe('Year 9 consultations: booking cancelled');
    // Not for parents, and not across schools.
    expect(
      (
        await e.http.post(`events/update-slot-by-admin?id=${e.eventId}`, e.parent.token, {
          slotId: a,
          parentId: e.parent.id,
        })
      ).statusCode,
    ).toBe(403);
    const other = await evening(t);
    expect(
      (await other.http.post(`events/confirm-booking?eventId=${e.eventId}`, other.admin.token, { bookingId }))
        .statusCode,
    ).toBe(404);
  });
});
