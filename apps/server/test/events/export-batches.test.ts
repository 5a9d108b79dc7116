import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingsExport } from '../../src/modules/events/export-bookings.service';
import { seedFamilies } from '../concurrency/race-support';
import { type Api, addPerson, api, expectStatus } from '../directory/directory-helpers';
import { testContext } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import {
  createEvent,
  createSection,
  type EventSchool,
  eventSchool,
  insertBooking,
  viewEvent,
} from './events-helpers';

// events/download-bookings streams the file in batches read one after another (issue 39): every booking
// once, in the file's order, whatever the batch size, even where many share a time and a teacher.

let t: TestApp;
let http: Api;
let school: EventSchool;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  school = await eventSchool(t, 'Export Academy');
});
afterAll(() => t.close());

/** The whole file, as the download streams it, read in batches of `batch` bookings. */
async function file(eventId: number, batch: number): Promise<string> {
  const { chunks } = await bookingsExport(testContext(t), school.schoolId, eventId, batch);
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe('the bookings download in batches', () => {
  it('has every booking once, in order by time, teacher and booking, whatever the batch size', async () => {
    const token = school.admin.token;
    const families = await seedFamilies(t.db, school.schoolId, 9);
    const teachers = [];
    for (const name of ['Cy', 'Ada', 'Bob'])
      teachers.push(await addPerson(t, token, 'teacher', { firstName: name, lastName: 'Teach' }));
    const evening = await createEvent(http, token, 'Evening', school.types.parentTeacher);
    await createSection(http, token, evening, {
      date: '2030-05-02',
      start: '16:00',
      end: '16:30',
      teachers: teachers.map((teacher) => ({ teacherId: teacher.id })),
    });
    // Three teachers at each of three times: one family in each slot.
    const slots = (await viewEvent(http, token, evening)).slots.flatMap((column) => column.slots);
    expect(slots).toHaveLength(9);
    for (const [index, slot] of slots.entries())
      await insertBooking(t.db, slot.id, { parentId: families[index]?.parentId ?? 0 });

    const whole = await file(evening, 1_000);
    const lines = whole.split('\r\n');
    expect(lines).toHaveLength(1 + 9 + 1);
    expect(lines.slice(1, 4).map((line) => line.split(',').slice(1, 3).join(' '))).toEqual([
      '16:00 Ada Teach',
      '16:00 Bob Teach',
      '16:00 Cy Teach',
    ]);
    for (const batch of [1, 2, 4]) expect(await file(evening, batch), `batch ${batch}`).toBe(whole);
    // The route sends the same file.
    const res = await http.get(`events/download-bookings?eventId=${evening}`, token);
    expect(res.body).toBe(whole);
  });

  it('keeps each booking once where every booking shares the time and has no teacher', async () => {
    const token = school.admin.token;
    const families = await seedFamilies(t.db, school.schoolId, 5);
    const open = await createEvent(http, token, 'Open morning', school.types.booking);
    expectStatus(
      await http.post(`events/update?id=${open}`, token, { slotMinutes: 60, usersPerSlot: 5 }),
      200,
    );
    await createSection(http, token, open, { date: '2030-05-03', start: '09:00', end: '10:00' });
    const [slot] = (await viewEvent(http, token, open)).slots.flatMap((column) => column.slots);
    for (const family of families)
      await insertBooking(t.db, slot?.id ?? 0, { parentId: family.parentId, studentId: family.studentId });
    const whole = await file(open, 1_000);
    expect(whole.split('\r\n')).toHaveLength(1 + 5 + 1);
    expect(await file(open, 2)).toBe(whole);
  });
});
