import { BOOKING_TEXT } from '@parley/domain/booking';
import { EVENT_TEXT } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../directory/directory-helpers';
import { daysAhead, eventSchool } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  type KindEvent,
  kindEvent,
  quickMember,
} from './booking-helpers';

// GET events/calendar-file?eventId ("Add to Calendar", spec §2 Home and §9): an .ics of the caller's
// appointments at the event, written in the school's zone, or of the event itself when they have none.

let t: TestApp;
let e: Evening;
let morning: KindEvent;
const morningDate = daysAhead(10);
beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, travelMinutes: 0 });
  // A booking event whose section has no location: the file says "School".
  morning = await kindEvent(t, e, 'booking', 'Open morning', { usersPerSlot: 5, slotMinutes: 30 }, [
    { date: morningDate, start: '09:00', end: '10:00' },
  ]);
});
afterAll(() => t.close());

const calendar = (eventId: number, token?: string) =>
  e.http.get(`events/calendar-file?eventId=${eventId}`, token);

/** The VEVENT blocks of a calendar file, unfolded. */
function vevents(text: string): string[] {
  const unfolded = text.replace(/\r\n[ \t]/g, '');
  return [...unfolded.matchAll(/BEGIN:VEVENT\r\n([\s\S]*?)END:VEVENT/g)].map((match) => match[1] ?? '');
}

const field = (block: string, name: string) =>
  block
    .split('\r\n')
    .find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`))
    ?.replace(/^[^:]*:/, '');

/** "20260312T161000" — the local wall clock of a date and time as the file writes it. */
const stamp = (date: string, time: string) => `${date.replaceAll('-', '')}T${time.replace(':', '')}00`;

describe('events/calendar-file', () => {
  const teacher = (i: number) => e.teachers[i] ?? e.parent;
  const child = (i: number) => e.children[i] ?? e.otherChild;
  let created: number[] = [];
  beforeAll(async () => {
    const grid = (await bookingPage(e, e.parent.token, e.code)).grid;
    const maths = freeSlots(grid, teacher(0).id)[1] ?? 0; // 16:10
    const english = freeSlots(grid, teacher(1).id)[3] ?? 0; // 16:30
    const art = freeSlots(grid, teacher(3).id)[5] ?? 0; // 16:50
    created = (
      await booked(e, e.parent.token, [
        { slotId: maths, studentId: child(0).id, subjectId: e.subjects[0] },
        { slotId: english, studentId: child(0).id, subjectId: e.subjects[1] },
        { slotId: art, studentId: child(1).id, subjectId: e.subjects[3] },
      ])
    ).created;
    // Cancelled: no longer in the file.
    expectStatus(
      await e.http.post(`events/remove-booking?eventId=${e.eventId}`, e.parent.token, {
        bookingId: created[2],
      }),
      200,
    );
  });

  it('gives a parent an .ics attachment with one VEVENT per live booking, in the school’s zone', async () => {
    const res = await calendar(e.eventId, e.parent.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar; charset=utf-8/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="Year-9-consultations.ics"');
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
    expect(text).toContain('METHOD:PUBLISH');
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/London');
    const blocks = vevents(text);
    expect(blocks).toHaveLength(2);
    const [first, second] = blocks;
    expect(field(first ?? '', 'UID')).toBe(`booking-${created[0]}@parley.test`);
    expect(first).toContain(`DTSTART;TZID=Europe/London:${stamp(e.date, '16:10')}`);
    expect(first).toContain(`DTEND;TZID=Europe/London:${stamp(e.date, '16:20')}`);
    expect(field(first ?? '', 'SUMMARY')).toBe(
      `Year 9 consultations: ${teacher(0).firstName} ${teacher(0).lastName} – ${child(0).firstName} ${child(0).lastName}`,
    );
    expect(field(first ?? '', 'LOCATION')).toBe('Main hall');
    expect(field(first ?? '', 'STATUS')).toBe('CONFIRMED');
    expect(field(first ?? '', 'URL')).toBe(`http://parley.test/book/ptevent/${e.code}`);
    expect(first).toContain('TRIGGER:-P1D');
    expect(field(second ?? '', 'UID')).toBe(`booking-${created[1]}@parley.test`);
    expect(second).toContain(`DTSTART;TZID=Europe/London:${stamp(e.date, '16:30')}`);
    expect(text).not.toContain(`booking-${created[2]}@`);
  });

  it('gives a student the appointments booked for them', async () => {
    const res = await calendar(e.eventId, child(0).token);
    expect(res.statusCode).toBe(200);
    const uids = vevents(res.body).map((block) => field(block, 'UID'));
    expect(uids).toEqual([`booking-${created[0]}@parley.test`, `booking-${created[1]}@parley.test`]);
  });

  it('gives a student with no booking the event itself, its section’s location or "School"', async () => {
    // The sibling's only booking was cancelled: the evening itself, in the hall.
    const evening = await calendar(e.eventId, child(1).token);
    expect(evening.statusCode).toBe(200);
    const [whole, ...rest] = vevents(evening.body);
    expect(rest).toEqual([]);
    expect(whole).toContain(`DTSTART;TZID=Europe/London:${stamp(e.date, '16:00')}`);
    expect(whole).toContain(`DTEND;TZID=Europe/London:${stamp(e.date, '18:00')}`);
    expect(field(whole ?? '', 'SUMMARY')).toBe('Year 9 consultations');
    expect(field(whole ?? '', 'LOCATION')).toBe('Main hall');
    expect(field(whole ?? '', 'DESCRIPTION')).toBe('School meeting event: Year 9 consultations');

    const res = await calendar(morning.eventId, child(1).token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="Open-morning.ics"');
    const blocks = vevents(res.body);
    expect(blocks).toHaveLength(1);
    const [block] = blocks;
    expect(field(block ?? '', 'UID')).toBe(
      `event-${morning.eventId}-section-${morning.sectionIds[0]}@parley.test`,
    );
    expect(block).toContain(`DTSTART;TZID=Europe/London:${stamp(morningDate, '09:00')}`);
    expect(block).toContain(`DTEND;TZID=Europe/London:${stamp(morningDate, '10:00')}`);
    expect(field(block ?? '', 'LOCATION')).toBe('School');
    expect(field(block ?? '', 'URL')).toBe(`http://parley.test/book/event/${morning.code}`);
  });

  it('writes the times in the school’s zone when the school is elsewhere (America/New_York)', async () => {
    await t.db
      .updateTable('schools')
      .set({ timezone: 'America/New_York' })
      .where('id', '=', e.schoolId)
      .execute();
    try {
      const res = await calendar(e.eventId, e.parent.token);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('BEGIN:VTIMEZONE\r\nTZID:America/New_York');
      expect(res.body).not.toContain('TZID=Europe/London');
      const [first] = vevents(res.body);
      // 16:10 in London is 11:10 in New York (five hours behind; four in the weeks their clocks change apart).
      expect(first).toMatch(
        new RegExp(`DTSTART;TZID=America/New_York:${e.date.replaceAll('-', '')}T1[12]1000`),
      );
    } finally {
      await t.db
        .updateTable('schools')
        .set({ timezone: 'Europe/London' })
        .where('id', '=', e.schoolId)
        .execute();
    }
  });

  it('answers 401 without a session, 404 for another school’s caller or an unknown event, 422 for a bad id', async () => {
    const anonymous = await calendar(e.eventId);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: BOOKING_TEXT.loginToBook });
    const other = await eventSchool(t, 'Other Academy');
    const stranger = await quickMember(t, other.admin.token, 'parent');
    expect(expectStatus(await calendar(e.eventId, stranger.token), 404)).toEqual({
      message: EVENT_TEXT.notFound,
    });
    expectStatus(await calendar(999999, e.parent.token), 404);
    expectStatus(await e.http.get('events/calendar-file?eventId=x', e.parent.token), 422);
  });
});
