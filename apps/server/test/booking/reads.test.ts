import {
  BOOKING_STATE_TEXT,
  BOOKING_TEXT,
  type BookingPage,
  type EventTeacher,
  type MyBooking,
  type UserSlots,
} from '@parley/domain/booking';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, expectStatus, type Member } from '../directory/directory-helpers';
import { type EventSchool, eventSchool } from '../events/events-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import {
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  kindEvent,
  quickMember,
} from './booking-helpers';

// The booking reads a family's screens make (spec §7 Events: user-slots-for-pt, booking-data-for-student,
// data-for-subject-teacher-selector; booking-view by id), and who may call each booking route at all.

let t: TestApp;
let e: Evening;
let bookingIds: number[];
beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, travelMinutes: 0 });
  const grid = (await bookingPage(e, e.parent.token, e.code)).grid;
  // The parent has the first child with Maths (16:00) and the second with Art (16:20).
  bookingIds = (
    await booked(e, e.parent.token, [
      { slotId: freeSlots(grid, teacher(0).id)[0] ?? 0, studentId: child(0).id, subjectId: e.subjects[0] },
      { slotId: freeSlots(grid, teacher(3).id)[2] ?? 0, studentId: child(1).id, subjectId: e.subjects[3] },
    ])
  ).created;
});
afterAll(() => t.close());

function teacher(i: number): Member {
  return e.teachers[i] ?? e.parent;
}
function child(i: number): Member {
  return e.children[i] ?? e.otherChild;
}

const stData = (items: unknown) =>
  encodeURIComponent(typeof items === 'string' ? items : JSON.stringify(items));
const userSlots = (token: string, query = '') =>
  e.http.get(`events/user-slots-for-pt?eventId=${e.eventId}${query}`, token);

describe('events/user-slots-for-pt', () => {
  it('gives the whole grid and the parent’s bookings without subjectTeacherData', async () => {
    const body = expectStatus<UserSlots>(await userSlots(e.parent.token), 200);
    expect(body.grid.map((group) => group.teacherId).sort()).toEqual(e.teachers.map((x) => x.id).sort());
    expect(body.bookings.map((booking) => booking.id)).toEqual(bookingIds);
    const maths = body.grid.find((group) => group.teacherId === teacher(0).id);
    expect(maths?.slots[0]).toMatchObject({ time: '16:00', free: 0, myBookingId: bookingIds[0] });
    expect(maths?.subjects).toEqual([{ id: e.subjects[0], name: 'Maths' }]);
  });

  it('limits the grid to the chosen teachers plus those already booked', async () => {
    const chosen = [{ studentId: child(0).id, teacherId: teacher(2).id, subjectId: e.subjects[2] }];
    const body = expectStatus<UserSlots>(
      await userSlots(e.parent.token, `&subjectTeacherData=${stData(chosen)}`),
      200,
    );
    // Science (asked for), Maths and Art (booked), in name order like every grid; not English.
    const shown = body.grid.map((group) => group.teacherId);
    expect([...shown].sort()).toEqual([teacher(0).id, teacher(2).id, teacher(3).id].sort());
    expect(shown).not.toContain(teacher(1).id);
    expect(body.grid.every((group) => group.slots.length === 12)).toBe(true);
    // Another family with no bookings sees only what they asked for; subjectId may be left out.
    const other = expectStatus<UserSlots>(
      await userSlots(
        e.otherParent.token,
        `&subjectTeacherData=${stData([{ studentId: e.otherChild.id, teacherId: teacher(1).id }])}`,
      ),
      200,
    );
    expect(other.grid.map((group) => group.teacherId)).toEqual([teacher(1).id]);
    expect(other.bookings).toEqual([]);
    // An empty choice shows only what is booked.
    const none = expectStatus<UserSlots>(
      await userSlots(e.otherParent.token, `&subjectTeacherData=${stData([])}`),
      200,
    );
    expect(none.grid).toEqual([]);
  });

  it('answers 422 for subjectTeacherData that is not JSON or not the contract’s shape', async () => {
    for (const bad of [
      '{not json',
      '{"studentId":1}',
      '[{"teacherId":"x","studentId":1}]',
      '[{"studentId":1}]',
    ]) {
      const res = await userSlots(e.parent.token, `&subjectTeacherData=${stData(bad)}`);
      expect({ bad, status: res.statusCode }).toEqual({ bad, status: 422 });
    }
    const body = expectStatus<{ message: string; errors: Record<string, string[]> }>(
      await userSlots(e.parent.token, `&subjectTeacherData=${stData('{not json')}`),
      422,
    );
    expect(body.errors.subjectTeacherData).toEqual(['subjectTeacherData must be JSON']);
    expectStatus(await e.http.get('events/user-slots-for-pt', e.parent.token), 422);
  });

  it("gives an admin a family's grid with parentId, and nobody else", async () => {
    const asAdmin = expectStatus<{ grid: BookingPage['grid']; bookings: Array<{ id: number }> }>(
      await userSlots(e.admin.token, `&parentId=${e.parent.id}`),
      200,
    );
    expect(asAdmin.bookings.map((b) => b.id)).toEqual(bookingIds);
    const mineInGrid = asAdmin.grid.flatMap((group) => group.slots).flatMap((slot) => slot.myBookingId ?? []);
    expect(mineInGrid.sort()).toEqual([...bookingIds].sort());
    // A parent's parentId changes nothing: they see their own grid.
    const other = expectStatus<{ bookings: unknown[] }>(
      await userSlots(e.otherParent.token, `&parentId=${e.parent.id}`),
      200,
    );
    expect(other.bookings).toEqual([]);
  });
});

describe('events/booking-data-for-student', () => {
  const dataFor = (token: string, studentId: number) =>
    e.http.post(`events/booking-data-for-student?eventId=${e.eventId}`, token, { studentId });
  type StudentData = {
    student: { id: number; name: string; teachers: Array<Record<string, unknown>> };
    bookings: MyBooking[];
  };

  it('gives a parent one child’s teachers (pre-fill) and the bookings for that child only', async () => {
    const body = expectStatus<StudentData>(await dataFor(e.parent.token, child(0).id), 200);
    expect(body.student.id).toBe(child(0).id);
    expect(body.student.name).toBe(`${child(0).firstName} ${child(0).lastName}`);
    // In subject name order: English, Maths, Science.
    expect(body.student.teachers).toEqual(
      [1, 0, 2].map((i) =>
        expect.objectContaining({ teacherId: teacher(i).id, subjectId: e.subjects[i], inEvent: true }),
      ),
    );
    expect(body.bookings.map((booking) => booking.id)).toEqual([bookingIds[0]]);
    const sibling = expectStatus<StudentData>(await dataFor(e.parent.token, child(1).id), 200);
    expect(sibling.student.teachers.map((row) => row.subjectName)).toEqual(['Art', 'Maths']);
    expect(sibling.bookings.map((booking) => booking.id)).toEqual([bookingIds[1]]);
  });

  it('marks a child’s teacher who takes no appointments at the event', async () => {
    const away = await quickMember(t, e.admin.token, 'teacher', { subjectIds: [e.subjects[1]] });
    const kid = await quickMember(t, e.admin.token, 'student', {
      parentIds: [e.otherParent.id],
      subjects: [{ subjectId: e.subjects[1], teacherId: away.id }],
    });
    const body = expectStatus<StudentData>(await dataFor(e.otherParent.token, kid.id), 200);
    expect(body.student.teachers).toEqual([expect.objectContaining({ teacherId: away.id, inEvent: false })]);
    expect(body.bookings).toEqual([]);
  });

  it('lets a student ask about themselves only; a parent asking about another child gets 422', async () => {
    const self = expectStatus<StudentData>(await dataFor(child(0).token, child(0).id), 200);
    expect(self.bookings.map((booking) => booking.id)).toEqual([bookingIds[0]]);
    expect(expectStatus(await dataFor(child(0).token, child(1).id), 403)).toEqual({
      message: BOOKING_TEXT.notYourChild,
    });
    const notMine = expectStatus<{ errors: Record<string, string[]> }>(
      await dataFor(e.parent.token, e.otherChild.id),
      422,
    );
    expect(Object.values(notMine.errors).flat()).toContain(BOOKING_TEXT.notYourChild);
    expectStatus(await dataFor(e.parent.token, 999999), 422);
    expectStatus(
      await e.http.post(`events/booking-data-for-student?eventId=${e.eventId}`, e.parent.token, {}),
      422,
    );
  });
});

describe('events/data-for-subject-teacher-selector', () => {
  it('lists the event’s teachers with their subjects and table', async () => {
    const body = expectStatus<{ teachers: EventTeacher[] }>(
      await e.http.post('events/data-for-subject-teacher-selector', e.parent.token, { eventId: e.eventId }),
      200,
    );
    expect(body.teachers).toHaveLength(4);
    const byId = new Map(body.teachers.map((row) => [row.teacherId, row]));
    ['Maths', 'English', 'Science', 'Art'].forEach((name, i) => {
      expect(byId.get(teacher(i).id)).toEqual({
        teacherId: teacher(i).id,
        name: `${teacher(i).firstName} ${teacher(i).lastName}`,
        subjects: [{ id: e.subjects[i], name }],
        location: 'Main hall',
      });
    });
    expectStatus(await e.http.post('events/data-for-subject-teacher-selector', e.parent.token, {}), 422);
    expectStatus(
      await e.http.post('events/data-for-subject-teacher-selector', e.parent.token, { eventId: 999999 }),
      404,
    );
  });
});

describe('events/booking-view', () => {
  it('gives by id what book-event gives by code', async () => {
    const byId = expectStatus<BookingPage>(
      await e.http.get(`events/booking-view?eventId=${e.eventId}`, e.parent.token),
      200,
    );
    const byCode = await bookingPage(e, e.parent.token, e.code);
    expect(byId).toEqual(byCode);
    expect(byId.bookings.map((booking) => booking.id)).toEqual(bookingIds);
    const student = expectStatus<BookingPage>(
      await e.http.get(`events/booking-view?eventId=${e.eventId}`, child(1).token),
      200,
    );
    expect(student.studentId).toBe(child(1).id);
    expect(student.bookings.map((booking) => booking.id)).toEqual([bookingIds[1]]);
  });

  it('answers 409 for a disabled event and 404 for an unknown one', async () => {
    const draft = await kindEvent(t, e, 'booking', 'Draft', {}, []);
    expectStatus(await e.http.post(`events/update?id=${draft.eventId}`, e.admin.token, { status: 0 }), 200);
    expect(
      expectStatus(await e.http.get(`events/booking-view?eventId=${draft.eventId}`, e.parent.token), 409),
    ).toEqual({
      message: BOOKING_STATE_TEXT.notTakingBookings,
    });
    expectStatus(await e.http.get('events/booking-view?eventId=999999', e.parent.token), 404);
  });

  it('opens only its own event for a personal booking link', async () => {
    const other = await kindEvent(t, e, 'booking', 'Tours', { slotMinutes: 30 }, [
      { date: e.date, start: '09:00', end: '10:00' },
    ]);
    // Recipients close the event to everyone else (issue 11): the parent of the later tests is one too.
    expectStatus(
      await e.http.post(`events/add-recipients?eventId=${e.eventId}&saveme=1`, e.admin.token, {
        userIds: [e.otherParent.id, e.parent.id],
      }),
      200,
    );
    expectStatus(
      await e.http.post(`message-types/send?eventId=${e.eventId}`, e.admin.token, {
        messageTypeName: 'inviteToBook',
      }),
      200,
    );
    const link =
      new URL((await lastMailTo(t.db, e.otherParent.email))?.links[0] ?? '').searchParams.get('link') ?? '';
    const viaLink = (url: string) =>
      t.app.inject({ method: 'GET', url: `/api/${url}`, headers: { 'x-booking-link': link } });
    const own = await viaLink(`events/booking-view?eventId=${e.eventId}`);
    expect(own.statusCode).toBe(200);
    expect((own.json() as BookingPage).viewer).toMatchObject({ userId: e.otherParent.id, viaLink: true });
    expect((await viaLink(`events/booking-view?eventId=${other.eventId}`)).statusCode).toBe(404);
    expect((await viaLink(`events/calendar-file?eventId=${other.eventId}`)).statusCode).toBe(404);
    expect((await viaLink(`events/user-slots-for-pt?eventId=${other.eventId}`)).statusCode).toBe(404);
  });
});

describe('who may call the booking routes', () => {
  let other: EventSchool;
  let stranger: Member;
  let strangerChild: Member;
  beforeAll(async () => {
    other = await eventSchool(t, 'Other Academy');
    strangerChild = await quickMember(t, other.admin.token, 'student');
    stranger = await quickMember(t, other.admin.token, 'parent', { studentIds: [strangerChild.id] });
  });

  type Call = { name: string; call: (http: Api, token?: string) => Promise<LightMyRequestResponse> };
  const slotId = () =>
    t.db
      .selectFrom('slots')
      .select('id')
      .where('event_id', '=', e.eventId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  const familyRoutes: Call[] = [
    {
      name: 'booking-view',
      call: (http, token) => http.get(`events/booking-view?eventId=${e.eventId}`, token),
    },
    {
      name: 'user-slots-for-pt',
      call: (http, token) => http.get(`events/user-slots-for-pt?eventId=${e.eventId}`, token),
    },
    {
      name: 'booking-data-for-student',
      call: (http, token) =>
        http.post(`events/booking-data-for-student?eventId=${e.eventId}`, token, {
          studentId: strangerChild.id,
        }),
    },
    {
      name: 'data-for-subject-teacher-selector',
      call: (http, token) =>
        http.post('events/data-for-subject-teacher-selector', token, { eventId: e.eventId }),
    },
    {
      name: 'arrange-slots',
      call: (http, token) =>
        http.post(`events/arrange-slots?eventId=${e.eventId}`, token, {
          items: [{ studentId: strangerChild.id, teacherId: teacher(2).id }],
        }),
    },
    {
      name: 'update-slot-for-booking',
      call: async (http, token) =>
        http.post(`events/update-slot-for-booking?id=${e.eventId}`, token, {
          items: [{ slotId: (await slotId()).id, studentId: strangerChild.id }],
          idempotencyKey: `denial-${Math.random()}`,
        }),
    },
    {
      name: 'remove-booking',
      call: (http, token) =>
        http.post(`events/remove-booking?eventId=${e.eventId}`, token, { bookingId: bookingIds[0] }),
    },
    {
      name: 'update-gown-size',
      call: (http, token) =>
        http.post(
          `events/update-gown-size?eventId=${e.eventId}&studentId=${child(0).id}&gownSizeId=M&userSlotId=${bookingIds[0]}`,
          token,
        ),
    },
    {
      name: 'calendar-file',
      call: (http, token) => http.get(`events/calendar-file?eventId=${e.eventId}`, token),
    },
  ];
  const adminRoutes: Call[] = [
    {
      name: 'update-slot-by-admin',
      call: async (http, token) =>
        http.post(`events/update-slot-by-admin?id=${e.eventId}`, token, {
          slotId: (await slotId()).id,
          // The caller's own family where they have one: an admin of another school reaches the event check.
          parentId: stranger.id,
          studentId: strangerChild.id,
        }),
    },
    {
      name: 'confirm-booking',
      call: (http, token) =>
        http.post(`events/confirm-booking?eventId=${e.eventId}`, token, { bookingId: bookingIds[0] }),
    },
  ];

  const statuses = async (routes: Call[], token?: string) => {
    const out: Record<string, number> = {};
    for (const route of routes) out[route.name] = (await route.call(e.http, token)).statusCode;
    return out;
  };
  const all = (routes: Call[], status: number) =>
    Object.fromEntries(routes.map((route) => [route.name, status]));

  it('answers 401 to every one without a session', async () => {
    expect(await statuses([...familyRoutes, ...adminRoutes])).toEqual(
      all([...familyRoutes, ...adminRoutes], 401),
    );
    const res = await e.http.get(`events/booking-view?eventId=${e.eventId}`);
    expect(res.json()).toEqual({ message: BOOKING_TEXT.loginToBook });
  });

  it('answers 404 to another school’s parent and admin for this school’s event', async () => {
    expect(await statuses(familyRoutes, stranger.token)).toEqual(all(familyRoutes, 404));
    expect(await statuses(adminRoutes, other.admin.token)).toEqual(all(adminRoutes, 404));
    // Nothing changed: the booking is still the parent's, unconfirmed.
    const row = await t.db
      .selectFrom('bookings')
      .select(['status', 'confirmed_at', 'gown_size'])
      .where('id', '=', bookingIds[0] ?? 0)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'booked', confirmed_at: null, gown_size: null });
  });

  it('refuses a teacher-only user the family’s actions (403), and what is not theirs (404)', async () => {
    expect(await statuses(familyRoutes, teacher(1).token)).toEqual({
      // Reads of the event itself are open to anyone of the school; a teacher is nobody's family.
      'booking-view': 200,
      'user-slots-for-pt': 403,
      'booking-data-for-student': 403,
      'data-for-subject-teacher-selector': 200,
      'arrange-slots': 403,
      'update-slot-for-booking': 403,
      'remove-booking': 404,
      'update-gown-size': 403,
      'calendar-file': 200,
    });
    const view = expectStatus<BookingPage>(
      await e.http.get(`events/booking-view?eventId=${e.eventId}`, teacher(1).token),
      200,
    );
    expect(view.viewer).toBeNull();
    expect(view.bookings).toEqual([]);
    const forbidden = expectStatus(
      await e.http.post(`events/update-slot-for-booking?id=${e.eventId}`, teacher(1).token, {
        items: [{ slotId: (await slotId()).id }],
        idempotencyKey: 'teacher-key-1',
      }),
      403,
    );
    expect(forbidden).toEqual({ message: SERVER_TEXT.forbidden });
  });

  it('refuses parents, students and teachers the admin routes (403)', async () => {
    for (const token of [e.parent.token, child(0).token, teacher(0).token]) {
      expect(await statuses(adminRoutes, token)).toEqual(all(adminRoutes, 403));
    }
    const row = await t.db
      .selectFrom('bookings')
      .select('confirmed_at')
      .where('id', '=', bookingIds[0] ?? 0)
      .executeTakeFirstOrThrow();
    expect(row.confirmed_at).toBeNull();
  });

  it('keeps one family out of another’s booking: remove-booking and update-gown-size answer 404', async () => {
    const remove = await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherParent.token, {
      bookingId: bookingIds[0],
    });
    expect(expectStatus(remove, 404)).toEqual({ message: BOOKING_TEXT.bookingNotFound });
    const asStudent = await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherChild.token, {
      bookingId: bookingIds[0],
    });
    expectStatus(asStudent, 404);
    const page = await bookingPage(e, e.parent.token, e.code);
    expect(page.bookings.map((booking) => booking.id)).toEqual(bookingIds);
  });
});
