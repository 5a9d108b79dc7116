import type { TeacherSchedule } from '@parley/domain/booking';
import { EVENT_TEXT } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../directory/directory-helpers';
import { eventSchool, minutesBetween, wallTime } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { booked, bookingPage, type Evening, evening, freeSlots, quickMember } from './booking-helpers';

// GET events/details-teacher?eventId (issue 5, /event/details-teacher): a teacher's evening row by row in
// the school's zone, free rows included, each booked row naming the family, the child and the subject.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const schedule = (e: Evening, token: string, query = '') =>
  e.http.get(`events/details-teacher?eventId=${e.eventId}${query}`, token);

describe('events/details-teacher', () => {
  let e: Evening;
  const teacher = (i: number) => e.teachers[i] ?? e.parent;
  const child = (i: number) => e.children[i] ?? e.otherChild;
  let slots: number[];
  let bookingIds: number[];
  beforeAll(async () => {
    e = await evening(t, { quick: true, travelMinutes: 0 });
    slots = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, teacher(0).id);
    // 16:10 the parent for the first child (Maths); 16:30 the other family; 16:10 also the sibling.
    const first = await booked(e, e.parent.token, [
      { slotId: slots[1] ?? 0, studentId: child(0).id, subjectId: e.subjects[0] },
    ]);
    const other = await booked(e, e.otherParent.token, [
      { slotId: slots[3] ?? 0, studentId: e.otherChild.id, subjectId: e.subjects[0] },
    ]);
    const sibling = await booked(e, e.parent.token, [{ slotId: slots[1] ?? 0, studentId: child(1).id }]);
    bookingIds = [...first.created, ...other.created, ...sibling.created];
  });

  it('gives the teacher every row of their evening in the school’s zone, free and booked, and the count', async () => {
    const body = expectStatus<TeacherSchedule>(await schedule(e, teacher(0).token), 200);
    expect(body.event).toEqual({
      id: e.eventId,
      name: 'Year 9 consultations',
      subscriberName: 'Booking Academy',
      timeZone: 'Europe/London',
      sectionTimeLabels: [expect.stringMatching(/^\w{3} \d{1,2} \w{3} \d{4}, 16:00 – 18:00$/)],
      status: 1,
      meetingMode: 'inPerson',
    });
    expect(body.teacher).toEqual({
      id: teacher(0).id,
      name: `${teacher(0).firstName} ${teacher(0).lastName}`,
      videoUrl: null,
    });
    expect(body.days).toHaveLength(1);
    const [day] = body.days;
    expect(day?.dateLabel).toBe(body.event.sectionTimeLabels[0]?.split(',')[0]);
    const rows = day?.rows ?? [];
    expect(rows.map((row) => row.time)).toEqual([
      '16:00',
      '16:10',
      '16:20',
      '16:30',
      '16:40',
      '16:50',
      '17:00',
      '17:10',
      '17:20',
      '17:30',
      '17:40',
      '17:50',
    ]);
    expect(rows.map((row) => row.endTime).slice(0, 2)).toEqual(['16:10', '16:20']);
    expect(rows.map((row) => row.slotId)).toEqual(slots);
    for (const row of rows) {
      expect(wallTime(row.startsAt, 'Europe/London')).toBe(row.time);
      expect(minutesBetween(row.startsAt, row.endsAt)).toBe(10);
      expect(row.location).toBe('Main hall');
      expect(row.sectionId).toBe(day?.sectionId);
    }
    expect(rows[0]?.bookings).toEqual([]);
    // Siblings seen together: one row, both children, in booking order.
    expect(rows[1]?.bookings).toEqual([
      {
        bookingId: bookingIds[0],
        parentName: `${e.parent.firstName} ${e.parent.lastName}`,
        parentEmail: e.parent.email,
        studentName: `${child(0).firstName} ${child(0).lastName}`,
        subjectName: 'Maths',
      },
      {
        bookingId: bookingIds[2],
        parentName: `${e.parent.firstName} ${e.parent.lastName}`,
        parentEmail: e.parent.email,
        studentName: `${child(1).firstName} ${child(1).lastName}`,
        subjectName: null,
      },
    ]);
    expect(rows[3]?.bookings).toEqual([
      {
        bookingId: bookingIds[1],
        parentName: `${e.otherParent.firstName} ${e.otherParent.lastName}`,
        parentEmail: e.otherParent.email,
        studentName: `${e.otherChild.firstName} ${e.otherChild.lastName}`,
        subjectName: 'Maths',
      },
    ]);
    expect(rows.filter((row) => row.bookings.length > 0).map((row) => row.time)).toEqual(['16:10', '16:30']);
    expect(body.bookedCount).toBe(3);
    expect(Number.isNaN(Date.parse(body.asOf))).toBe(false);
  });

  it('shows another teacher only their own rows, and drops a cancelled booking', async () => {
    const english = expectStatus<TeacherSchedule>(await schedule(e, teacher(1).token), 200);
    expect(english.teacher.id).toBe(teacher(1).id);
    expect(english.days[0]?.rows).toHaveLength(12);
    expect(english.bookedCount).toBe(0);
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.otherParent.token, {
        bookingId: bookingIds[1],
      }),
      200,
    );
    const maths = expectStatus<TeacherSchedule>(await schedule(e, teacher(0).token), 200);
    expect(maths.days[0]?.rows[3]?.bookings).toEqual([]);
    expect(maths.bookedCount).toBe(2);
  });

  it('gives a teacher who is not in the event no days', async () => {
    const outsider = await quickMember(t, e.admin.token, 'teacher');
    const body = expectStatus<TeacherSchedule>(await schedule(e, outsider.token), 200);
    expect(body.days).toEqual([]);
    expect(body.bookedCount).toBe(0);
    expect(body.teacher.id).toBe(outsider.id);
    expect(body.event.id).toBe(e.eventId);
  });

  it('shows another teacher’s schedule to an admin only (?teacherId)', async () => {
    const forAdmin = expectStatus<TeacherSchedule>(
      await schedule(e, e.admin.token, `&teacherId=${teacher(0).id}`),
      200,
    );
    expect(forAdmin.teacher.id).toBe(teacher(0).id);
    expect(forAdmin.bookedCount).toBe(2);
    expect(forAdmin.days[0]?.rows[1]?.bookings).toHaveLength(2);
    expectStatus(await schedule(e, teacher(1).token, `&teacherId=${teacher(0).id}`), 403);
    // Their own id is fine.
    expect(
      expectStatus<TeacherSchedule>(await schedule(e, teacher(1).token, `&teacherId=${teacher(1).id}`), 200)
        .teacher.id,
    ).toBe(teacher(1).id);
    // An unknown teacher id: 404.
    expect(expectStatus(await schedule(e, e.admin.token, '&teacherId=999999'), 404)).toEqual({
      message: EVENT_TEXT.unknownTeacher,
    });
  });

  it('refuses parents and students (403), and a caller without a session (401)', async () => {
    for (const token of [e.parent.token, child(0).token]) {
      expect(expectStatus(await schedule(e, token), 403)).toEqual({ message: SERVER_TEXT.forbidden });
      expectStatus(await schedule(e, token, `&teacherId=${teacher(0).id}`), 403);
    }
    const anonymous = await e.http.get(`events/details-teacher?eventId=${e.eventId}`);
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 404 for another school’s event, and for an unknown event', async () => {
    const other = await eventSchool(t, 'Other Academy');
    const otherTeacher = await quickMember(t, other.admin.token, 'teacher');
    expect(expectStatus(await schedule(e, otherTeacher.token), 404)).toEqual({
      message: EVENT_TEXT.notFound,
    });
    expectStatus(await schedule(e, other.admin.token, `&teacherId=${teacher(0).id}`), 404);
    // Our admin asking for their teacher: not one of ours.
    expectStatus(await schedule(e, e.admin.token, `&teacherId=${otherTeacher.id}`), 404);
    expectStatus(await e.http.get('events/details-teacher?eventId=999999', teacher(0).token), 404);
    expectStatus(await e.http.get('events/details-teacher?eventId=abc', teacher(0).token), 422);
  });
});

describe('events/details-teacher in a school outside UTC', () => {
  it('labels rows with the school’s local times (America/New_York)', async () => {
    const e = await evening(t, { quick: true, timezone: 'America/New_York' });
    const maths = e.teachers[0];
    const slotId = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, maths?.id ?? 0)[6] ?? 0;
    await booked(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id, subjectId: e.subjects[0] }]);
    const body = expectStatus<TeacherSchedule>(await schedule(e, maths?.token ?? ''), 200);
    expect(body.event.timeZone).toBe('America/New_York');
    expect(body.event.sectionTimeLabels[0]).toMatch(/, 16:00 – 18:00$/);
    const rows = body.days[0]?.rows ?? [];
    expect(rows[0]).toMatchObject({ time: '16:00', endTime: '16:10' });
    expect(rows.at(-1)).toMatchObject({ time: '17:50', endTime: '18:00' });
    for (const row of rows) expect(wallTime(row.startsAt, 'America/New_York')).toBe(row.time);
    // 16:00 in New York is 20:00 or 21:00 UTC, never 16:00.
    expect(['20:00', '21:00']).toContain(wallTime(rows[0]?.startsAt ?? '', 'UTC'));
    const bookedRow = rows.find((row) => row.bookings.length > 0);
    expect(bookedRow?.time).toBe('17:00');
    expect(body.bookedCount).toBe(1);
  });
});
