import { BOOKING_TEXT } from '@parley/domain/booking';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { book, bookingPage, type Evening, evening, freeSlots, quickMember } from './booking-helpers';

// The rules of an evening hold per child, whoever books (issue 14): a child with two parents cannot get
// past "most appointments per child" or the travel gap because each parent books separately.

let t: TestApp;
const child = (e: Evening) => e.children[0] as Member;
const slotsOf = async (e: Evening, teacher: number) =>
  freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, e.teachers[teacher]?.id ?? 0);
const item = (e: Evening, slotId: number, teacher: number) => ({
  slotId,
  studentId: child(e).id,
  subjectId: e.subjects[teacher] ?? null,
});

/** The live bookings of the evening's first child, whoever made them. */
const liveBookingsOfChild = (e: Evening) =>
  t.db
    .selectFrom('bookings')
    .select('id')
    .where('event_id', '=', e.eventId)
    .where('student_id', '=', child(e).id)
    .where('status', '=', 'booked')
    .execute();

/** The evening's first child gets a second parent. */
async function withSecondParent(e: Evening): Promise<Member> {
  return quickMember(t, e.admin.token, 'parent', { studentIds: [child(e).id] });
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('two parents of one child', () => {
  it('cannot together pass the per-child limit, one after the other', async () => {
    const e = await evening(t, { quick: true, maxAppointmentsPerChild: 1, schoolName: 'Limit Academy' });
    const second = await withSecondParent(e);
    const first = await book(e, e.parent.token, [item(e, (await slotsOf(e, 0))[0] ?? 0, 0)]);
    expect(first.statusCode).toBe(200);
    const other = await book(e, second.token, [item(e, (await slotsOf(e, 1))[5] ?? 0, 1)]);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(BOOKING_TEXT.childLimit(1));
  });

  it('cannot together break the travel gap, one after the other', async () => {
    const e = await evening(t, { quick: true, travelMinutes: 10, schoolName: 'Gap Academy' });
    const second = await withSecondParent(e);
    const [a] = await slotsOf(e, 0); // 16:00–16:10
    const b = (await slotsOf(e, 1))[1] ?? 0; // 16:10–16:20: no time to walk
    expect((await book(e, e.parent.token, [item(e, a ?? 0, 0)])).statusCode).toBe(200);
    const other = await book(e, second.token, [item(e, b, 1)]);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(BOOKING_TEXT.travelGap(10));
    // Later in the evening is fine.
    expect((await book(e, second.token, [item(e, (await slotsOf(e, 1))[4] ?? 0, 1)])).statusCode).toBe(200);
  });

  it('cannot together pass the limit in a race: of two parents booking at once, one gets it', async () => {
    const e = await evening(t, { quick: true, maxAppointmentsPerChild: 1, schoolName: 'Race Academy' });
    const second = await withSecondParent(e);
    const [x, y] = [(await slotsOf(e, 0))[2] ?? 0, (await slotsOf(e, 1))[6] ?? 0];
    const answers = await Promise.all([
      book(e, e.parent.token, [item(e, x, 0)]),
      book(e, second.token, [item(e, y, 1)]),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(await liveBookingsOfChild(e)).toHaveLength(1);
  });

  it('cannot together break the travel gap in a race: of two parents booking back-to-back slots at once, one gets it', async () => {
    const e = await evening(t, { quick: true, travelMinutes: 10, schoolName: 'Gap Race Academy' });
    const second = await withSecondParent(e);
    // The child sees teachers 0, 1 and 2, each once: two rounds, the second with the teacher whose
    // booking lost and the one left, 40 minutes after the first (far enough from it).
    let teachers = [0, 1];
    for (const round of [0, 1]) {
      const [a, b] = teachers as [number, number];
      const [x, y] = [(await slotsOf(e, a))[4 * round] ?? 0, (await slotsOf(e, b))[4 * round + 1] ?? 0];
      const answers = await Promise.all([
        book(e, e.parent.token, [item(e, x, a)]),
        book(e, second.token, [item(e, y, b)]),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const lost = answers.findIndex((answer) => answer.statusCode === 409);
      expect(answers[lost]?.json().message).toBe(BOOKING_TEXT.travelGap(10));
      teachers = [teachers[lost] ?? 0, 2];
    }
    expect(await liveBookingsOfChild(e)).toHaveLength(2);
  });
});
