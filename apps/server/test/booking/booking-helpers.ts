import { randomUUID } from 'node:crypto';
import type { BookingPage, BookingResult } from '@parley/domain/booking';
import { SCAN_WINDOW_HOURS_MAX } from '@parley/domain/events';
import type { HomeData } from '@parley/domain/home';
import type { LightMyRequestResponse } from 'fastify';
import { issueToken } from '../../src/modules/tokens/tokens.repository';
import {
  type Api,
  addMember,
  addPerson,
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
  type SectionBody,
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

/**
 * A person of the admin's school made through the API (create-*, no invitation mail) with a session
 * issued straight into auth_tokens, as a login would: no argon2 hash, so a fixture of many people stays
 * fast. Use addMember where the invitation and password pages are what is being tested.
 */
export async function quickMember(
  t: TestApp,
  adminToken: string,
  role: 'teacher' | 'parent' | 'student',
  body: Record<string, unknown> = {},
): Promise<Member> {
  const person = await addPerson(t, adminToken, role, { ...body, sendInvite: false });
  return { ...person, token: await sessionFor(t, person.id) };
}

/** A fresh access token for an existing user (what a login issues). */
export async function sessionFor(t: TestApp, userId: number): Promise<string> {
  const user = await t.db
    .selectFrom('users')
    .select('school_id')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return issueToken(t.db, { userId, schoolId: user.school_id, kind: 'access' });
}

export type EveningOptions = {
  timezone?: string;
  travelMinutes?: number;
  maxAppointmentsPerChild?: number;
  /** People get their sessions straight from the token table (quickMember) instead of the invitation link. */
  quick?: boolean;
  /** The school's name (Booking Academy). */
  schoolName?: string;
  /** The evening's day ('YYYY-MM-DD', in the school's zone); a week ahead unless given. */
  date?: string;
};

/** 16:00–18:00 on a day ahead, 10-minute slots, four teachers (Maths, English, Science, Art), enabled. */
export async function evening(t: TestApp, options: EveningOptions = {}): Promise<Evening> {
  const school = await eventSchool(t, options.schoolName ?? 'Booking Academy', options.timezone);
  const http = api(t.app);
  const token = school.admin.token;
  const member = options.quick ? quickMember : addMember;
  const subjects = await Promise.all(
    ['Maths', 'English', 'Science', 'Art'].map((name) => addSubject(t, token, name)),
  );
  const teachers: Member[] = [];
  for (const subjectId of subjects) {
    teachers.push(await member(t, token, 'teacher', { subjectIds: [subjectId] }));
  }
  const parent = await member(t, token, 'parent');
  const otherParent = await member(t, token, 'parent');
  const taught = (indexes: number[]) =>
    indexes.map((index) => ({ subjectId: subjects[index] ?? 0, teacherId: teachers[index]?.id ?? 0 }));
  const children = [
    await member(t, token, 'student', { parentIds: [parent.id], subjects: taught([0, 1, 2]) }),
    await member(t, token, 'student', { parentIds: [parent.id], subjects: taught([0, 3]) }),
  ];
  const otherChild = await member(t, token, 'student', {
    parentIds: [otherParent.id],
    subjects: taught([0, 1]),
  });
  const eventId = await createEvent(http, token, 'Year 9 consultations', school.types.parentTeacher);
  const settings: Record<string, unknown> = { slotMinutes: 10 };
  if (options.travelMinutes !== undefined) settings.travelMinutes = options.travelMinutes;
  if (options.maxAppointmentsPerChild !== undefined)
    settings.maxAppointmentsPerChild = options.maxAppointmentsPerChild;
  expectStatus(await http.post(`events/update?id=${eventId}`, token, settings), 200);
  const date = options.date ?? daysAhead(7);
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

/** A door open two months either side of its event: for tests that scan an event days ahead (issue 35). */
export const OPEN_DOOR = {
  scanOpensHoursBefore: SCAN_WINDOW_HOURS_MAX,
  scanClosesHoursAfter: SCAN_WINDOW_HOURS_MAX,
} as const;

export type KindEvent = { http: Api; eventId: number; code: string; sectionIds: number[] };

/**
 * Another event of the school (created and enabled through the API): its options set with events/update
 * (usersPerSlot, guestAllowance, gownSizes…) and its sections added.
 */
export async function kindEvent(
  t: TestApp,
  school: EventSchool & { http: Api },
  kind: keyof EventSchool['types'],
  name: string,
  options: Record<string, unknown>,
  sections: SectionBody[],
): Promise<KindEvent> {
  const token = school.admin.token;
  const eventId = await createEvent(school.http, token, name, school.types[kind]);
  if (Object.keys(options).length > 0)
    expectStatus(await school.http.post(`events/update?id=${eventId}`, token, options), 200);
  const sectionIds: number[] = [];
  for (const section of sections)
    sectionIds.push((await createSection(school.http, token, eventId, section)).id);
  const event = await t.db
    .selectFrom('events')
    .select('code')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  return { http: school.http, eventId, code: event.code, sectionIds };
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

/** POST events/add-recipients?saveme=1 as the school's admin. */
export async function addRecipients(
  school: { http: Api; admin: { token: string } },
  eventId: number,
  userIds: number[],
): Promise<void> {
  expectStatus(
    await school.http.post(`events/add-recipients?eventId=${eventId}&saveme=1`, school.admin.token, {
      userIds,
    }),
    200,
  );
}

/** GET site/index: the home data, My Events lists included. */
export async function home(e: { http: Api }, token: string): Promise<HomeData> {
  return expectStatus<HomeData>(await e.http.get('site/index', token), 200);
}
