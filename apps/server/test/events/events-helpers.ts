import type {
  EventBookingsPage,
  EventSlotsAnswer,
  RecipientCounts,
  RecipientsPage,
} from '@parley/domain/event-lists';
import type { EventDetail, EventTypeItem, SlotGroup } from '@parley/domain/events';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database';
import { type Api, addMember, api, expectStatus, newSchool } from '../directory/directory-helpers';
import type { TestApp } from '../test-app';

// Fixtures of the events tests: a school with its event types by group, events and sections made through
// the API, and bookings written straight into the database (the booking flow is the next issue's).

export type EventSchool = {
  schoolId: number;
  admin: { id: number; email: string; token: string };
  types: { parentTeacher: number; booking: number; ticketed: number; graduation: number };
};

/** A registered school (optionally in another zone) with the ids of its four event types. */
export async function eventSchool(t: TestApp, name: string, timezone?: string): Promise<EventSchool> {
  const created = await newSchool(t, name);
  if (timezone) {
    await t.db.updateTable('schools').set({ timezone }).where('id', '=', created.schoolId).execute();
  }
  const index = expectStatus<{ eventTypes: EventTypeItem[] }>(
    await api(t.app).get('events/index', created.admin.token),
    200,
  );
  const byGroup = (group: number) => index.eventTypes.find((type) => type.groupInt === group)?.id ?? 0;
  return {
    ...created,
    types: { parentTeacher: byGroup(1), booking: byGroup(4), ticketed: byGroup(2), graduation: byGroup(3) },
  };
}

/** Creates an event and enables it, as an admin does once it is set up (new events start disabled). */
export async function createEvent(http: Api, token: string, name: string, eventTypeId: number) {
  const { id } = expectStatus<{ id: number }>(
    await http.post('events/create', token, { name, eventTypeId }),
    200,
  );
  expectStatus(await http.post(`events/update?id=${id}`, token, { status: 1 }), 200);
  return id;
}

/** An event as its page shows it, with its whole slot grid (which the page asks for a few columns at a time). */
export type EventWithSlots = EventDetail & { slots: SlotGroup[] };

export async function viewEvent(http: Api, token: string, id: number | 'current'): Promise<EventWithSlots> {
  const { event } = expectStatus<{ event: EventDetail }>(await http.get(`events/view?id=${id}`, token), 200);
  const grid = expectStatus<EventSlotsAnswer>(await http.get(`events/slots?eventId=${event.id}`, token), 200);
  return { ...event, slots: grid.items };
}

/** A page of the event's recipients (events/recipients), the first unless asked. */
export async function recipientsOf(
  http: Api,
  token: string,
  eventId: number,
  query: { q?: string; notBooked?: 0 | 1; page?: number } = {},
): Promise<RecipientsPage> {
  const params = new URLSearchParams({ eventId: String(eventId) });
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return expectStatus<RecipientsPage>(await http.get(`events/recipients?${params}`, token), 200);
}

/** The whole recipients list's counts (events/recipient-counts). */
export async function recipientCountsOf(http: Api, token: string, eventId: number): Promise<RecipientCounts> {
  return expectStatus<RecipientCounts>(
    await http.get(`events/recipient-counts?eventId=${eventId}`, token),
    200,
  );
}

/** The event's bookings (events/bookings), the cancelled too: the first page unless asked. */
export async function bookingsOf(
  http: Api,
  token: string,
  eventId: number,
  query: { q?: string; cancelled?: 0 | 1; page?: number } = { cancelled: 1 },
): Promise<EventBookingsPage> {
  const params = new URLSearchParams({ eventId: String(eventId) });
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return expectStatus<EventBookingsPage>(await http.get(`events/bookings?${params}`, token), 200);
}

/**
 * A paged list of an event (decision 035) refuses each bad query with a 4xx naming its field, and is the
 * school admin's alone: a teacher is refused (403), another school's admin finds nothing (404).
 */
export async function expectListGuarded(
  t: TestApp,
  school: EventSchool,
  path: string,
  refused: ReadonlyArray<readonly [query: string, field: string]>,
): Promise<void> {
  const http = api(t.app);
  const get = (query: string, token = school.admin.token) => http.get(`${path}&${query}`, token);
  for (const [query, field] of refused) {
    const res = await get(query);
    expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, query).toBeLessThan(500);
    expect(JSON.stringify(res.json()), query).toContain(field);
  }
  const teacher = await addMember(t, school.admin.token, 'teacher');
  expect((await get('', teacher.token)).statusCode).toBe(403);
  const other = await eventSchool(t, `Other ${school.schoolId}`);
  expect((await get('', other.admin.token)).statusCode).toBe(404);
}

export type SectionBody = {
  date: string;
  start: string;
  end: string;
  location?: string | null;
  teachers?: Array<{
    teacherId: number;
    location?: string | null;
    unavailable?: Array<{ start: string; end: string }>;
  }>;
  confirm?: boolean;
};

export async function createSection(http: Api, token: string, eventId: number, body: SectionBody) {
  return expectStatus<{ id: number; slotCount: number }>(
    await http.post(`events/create-section?eventId=${eventId}`, token, body),
    200,
  );
}

/** A booking as the booking flow writes it: the slot's times and teacher (the database counts its place). */
export async function insertBooking(
  db: Db,
  slotId: number,
  who: { parentId?: number; studentId?: number; subjectId?: number },
): Promise<number> {
  const slot = await db.selectFrom('slots').selectAll().where('id', '=', slotId).executeTakeFirstOrThrow();
  const row = await db
    .insertInto('bookings')
    .values({
      school_id: slot.school_id,
      event_id: slot.event_id,
      slot_id: slot.id,
      teacher_id: slot.teacher_id,
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      parent_id: who.parentId ?? null,
      student_id: who.studentId ?? null,
      subject_id: who.subjectId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Mails to an address whose subject contains the text. */
export async function mailsTo(db: Db, to: string, subjectPart = '') {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to.toLowerCase())
    .where('subject', 'like', `%${subjectPart}%`)
    .orderBy('id')
    .execute();
}

/** The local time of day of an instant in a zone: what a screen in the school shows. */
export function wallTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

export const minutesBetween = (a: string, b: string) =>
  (new Date(b).getTime() - new Date(a).getTime()) / 60_000;

/** A calendar date `days` from today (UTC), for sections that must lie ahead. */
export function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
