import { randomUUID } from 'node:crypto';
import type { BookingPage, BookingResult } from '@parley/domain/booking';
import type { LightMyRequestResponse } from 'fastify';
import {
  type Api,
  addMember,
  addSubject,
  api,
  expectStatus,
  type Member,
} from '../directory/directory-helpers';
import {
  createEvent,
  createSection,
  daysAhead,
  type EventSchool,
  eventSchool,
} from '../events/events-helpers';
import type { TestApp } from '../test-app';

// Fixtures of the booking tests: a parent-teacher evening with four teachers, a parent of two children
// who share two of them, and calls as a family would make them.

export type Evening = EventSchool & {
  http: Api;
  eventId: number;
  code: string;
  date: string;
  teachers: Member[];
  subjects: number[];
  parent: Member;
  children: Member[];
  otherParent: Member;
  otherChild: Member;
};

/** 16:00–18:00 on a day ahead, 10-minute slots, four teachers (Maths, English, Science, Art), enabled. */
export async function evening(
  t: TestApp,
  options: { timezone?: string; travelMinutes?: number; maxAppointmentsPerChild?: number } = {},
): Promise<Evening> {
  const school = await eventSchool(t, 'Booking Academy', options.timezone);
  const http = api(t.app);
  const token = school.admin.token;
  const subjects = await Promise.all(
    ['Maths', 'English', 'Science', 'Art'].map((name) => addSubject(t, token, name)),
  );
  const teachers: Member[] = [];
  for (const subjectId of subjects) {
    teachers.push(await addMember(t, token, 'teacher', { subjectIds: [subjectId] }));
  }
  const parent = await addMember(t, token, 'parent');
  const otherParent = await addMember(t, token, 'parent');
  const taught = (indexes: number[]) =>
    indexes.map((index) => ({ subjectId: subjects[index] ?? 0, teacherId: teachers[index]?.id ?? 0 }));
  const children = [
    await addMember(t, token, 'student', { parentIds: [parent.id], subjects: taught([0, 1, 2]) }),
    await addMember(t, token, 'student', { parentIds: [parent.id], subjects: taught([0, 3]) }),
  ];
  const otherChild = await addMember(t, token, 'student', {
    parentIds: [otherParent.id],
    subjects: taught([0, 1]),
  });
  const eventId = await createEvent(http, token, 'Year 9 consultations', school.types.parentTeacher);
  const settings: Record<string, unknown> = { slotMinutes: 10 };
  if (options.travelMinutes !== undefined) settings.travelMinutes = options.travelMinutes;
  if (options.maxAppointmentsPerChild !== undefined)
    settings.maxAppointmentsPerChild = options.maxAppointmentsPerChild;
  expectStatus(await http.post(`events/update?id=${eventId}`, token, settings), 200);
  const date = daysAhead(7);
  await createSection(http, token, eventId, {
    date,
    start: '16:00',
    end: '18:00',
    location: 'Main hall',
    teachers: teachers.map((teacher) => ({ teacherId: teacher.id })),
  });
  const event = await t.db
    .selectFrom('events')
    .select('code')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  return {
    ...school,
    http,
    eventId,
    code: event.code,
    date,
    teachers,
    subjects,
    parent,
    children,
    otherParent,
    otherChild,
  };
}

export function page(
  e: { http: Api },
  token: string | undefined,
  code: string,
): Promise<LightMyRequestResponse> {
  return e.http.get(`events/book-event?code=${code}`, token);
}

export async function bookingPage(e: { http: Api }, token: string, code: string): Promise<BookingPage> {
  return expectStatus<BookingPage>(await page(e, token, code), 200);
}

/** The free slot ids of a teacher's column, in time order. */
export function freeSlots(grid: BookingPage['grid'], teacherId: number): number[] {
  return grid
    .filter((group) => group.teacherId === teacherId)
    .flatMap((group) => group.slots.filter((slot) => slot.free > 0).map((slot) => slot.id));
}

export type Item = {
  slotId: number;
  studentId?: number | null;
  subjectId?: number | null;
  guests?: number;
  gownSize?: string | null;
};

export function book(
  e: { http: Api; eventId: number },
  token: string,
  items: Item[],
  extra: { cancelBookingIds?: number[]; idempotencyKey?: string } = {},
): Promise<LightMyRequestResponse> {
  return e.http.post(`events/update-slot-for-booking?id=${e.eventId}`, token, {
    items,
    idempotencyKey: extra.idempotencyKey ?? randomUUID(),
    ...(extra.cancelBookingIds && { cancelBookingIds: extra.cancelBookingIds }),
  });
}

export async function booked(
  e: { http: Api; eventId: number },
  token: string,
  items: Item[],
  extra: { cancelBookingIds?: number[]; idempotencyKey?: string } = {},
): Promise<BookingResult> {
  return expectStatus<BookingResult>(await book(e, token, items, extra), 200);
}
