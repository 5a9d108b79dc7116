import type { BookingPage } from '@parley/domain/booking';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../directory/directory-helpers';
import { insertBooking, mailsTo } from '../events/events-helpers';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { booked, bookingPage, type Evening, evening, freeSlots, home, quickMember } from './booking-helpers';

// A teacher leaves (POST users/delete?id&role=teacher, issue 3's role removal): their appointments still to
// come are cancelled and each family is told, their future slots go, and no family's grid offers them any
// more. Past appointments stay as the school's records.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CANCELLED_SUBJECT = 'Year 9 consultations: your booking was cancelled';

const removeRole = (e: Evening, id: number, role: string) =>
  e.http.post(`users/delete?id=${id}&role=${role}`, e.admin.token);

async function slotsOf(e: Evening, teacherId: number) {
  return t.db
    .selectFrom('slots')
    .select(['id', 'starts_at'])
    .where('event_id', '=', e.eventId)
    .where('teacher_id', '=', teacherId)
    .orderBy('starts_at')
    .execute();
}

async function bookingRow(id: number) {
  return t.db
    .selectFrom('bookings')
    .select(['id', 'status', 'slot_id', 'teacher_id', 'starts_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('removing a teacher’s role', () => {
  let e: Evening;
  const teacher = (i: number) => e.teachers[i] ?? e.parent;
  const child = (i: number) => e.children[i] ?? e.otherChild;
  let mathsIds: number[];
  let englishId: number;
  let pastId: number;
  let pastSlotId: number;
  beforeAll(async () => {
    e = await evening(t, { quick: true, travelMinutes: 0 });
    const grid = (await bookingPage(e, e.parent.token, e.code)).grid;
    const maths = freeSlots(grid, teacher(0).id);
    // The family: both children with Maths at 16:00, the first child with English at 16:30.
    const family = await booked(e, e.parent.token, [
      { slotId: maths[0] ?? 0, studentId: child(0).id, subjectId: e.subjects[0] },
      { slotId: maths[0] ?? 0, studentId: child(1).id, subjectId: e.subjects[0] },
      { slotId: freeSlots(grid, teacher(1).id)[3] ?? 0, studentId: child(0).id, subjectId: e.subjects[1] },
    ]);
    const other = await booked(e, e.otherParent.token, [
      { slotId: maths[2] ?? 0, studentId: e.otherChild.id, subjectId: e.subjects[0] },
    ]);
    mathsIds = [...(family.created.slice(0, 2) ?? []), ...other.created];
    englishId = family.created[2] ?? 0;
    // An appointment already held: a Maths slot moved into the past with its booking (the API only makes
    // times ahead), booked by a third family.
    pastSlotId = maths.at(-1) ?? 0;
    const earlier = await quickMember(t, e.admin.token, 'parent');
    pastId = await insertBooking(t.db, pastSlotId, { parentId: earlier.id });
    await t.db
      .updateTable('slots')
      .set({ starts_at: sql`starts_at - interval '30 days'`, ends_at: sql`ends_at - interval '30 days'` })
      .where('id', '=', pastSlotId)
      .execute();
    await t.db
      .updateTable('bookings')
      .set({ starts_at: sql`starts_at - interval '30 days'`, ends_at: sql`ends_at - interval '30 days'` })
      .where('id', '=', pastId)
      .execute();
  });

  it('cancels their future live bookings, mails each family once, and removes their future slots', async () => {
    const parentMails = await mailCount(t.db, e.parent.email);
    const otherMails = await mailCount(t.db, e.otherParent.email);
    const res = await removeRole(e, teacher(0).id, 'teacher');
    expect(expectStatus<{ id: number; message: string }>(res, 200).id).toBe(teacher(0).id);

    for (const id of mathsIds) expect((await bookingRow(id)).status).toBe('cancelled');
    // The English appointment and the held one are untouched.
    expect((await bookingRow(englishId)).status).toBe('booked');
    expect((await bookingRow(pastId)).status).toBe('booked');

    // One mail per family, listing every cancelled appointment (the siblings' two in one mail).
    expect(await mailCount(t.db, e.parent.email)).toBe(parentMails + 1);
    expect(await mailCount(t.db, e.otherParent.email)).toBe(otherMails + 1);
    const [toParent] = await mailsTo(t.db, e.parent.email, 'your booking was cancelled');
    expect(toParent?.subject).toBe(CANCELLED_SUBJECT);
    expect(toParent?.text_body).toContain(`${child(0).firstName} ${child(0).lastName}`);
    expect(toParent?.text_body).toContain(`${child(1).firstName} ${child(1).lastName}`);
    expect(toParent?.text_body).toContain('16:00');
    expect(toParent?.text_body).toContain('A teacher is no longer taking appointments at');
    // No password: "Book again" carries the family's personal link.
    expect(toParent?.links).toEqual([
      expect.stringMatching(new RegExp(`^http://parley\\.test/book/ptevent/${e.code}\\?link=[\\w-]{40,}$`)),
    ]);
    const [toOther] = await mailsTo(t.db, e.otherParent.email, 'your booking was cancelled');
    expect(toOther?.text_body).toContain(`${e.otherChild.firstName} ${e.otherChild.lastName}`);
    expect(toOther?.text_body).toContain('16:20');

    // Future slots gone (the cancelled bookings keep their times, without a slot).
    const future = (await slotsOf(e, teacher(0).id)).filter((slot) => slot.starts_at.getTime() > Date.now());
    expect(future).toEqual([]);
    for (const id of mathsIds) expect((await bookingRow(id)).slot_id).toBeNull();
    const sectionTeachers = await t.db
      .selectFrom('section_teachers')
      .select('teacher_id')
      .where('teacher_id', '=', teacher(0).id)
      .execute();
    expect(sectionTeachers).toEqual([]);
  });

  // withdrawTeacher keeps past slots as the school's records; a teacher with held appointments is then
  // deactivated, not deleted (deleting would cascade to their slots and leave a live booking slotless).
  it('keeps the held appointment’s record whole: its slot and its teacher', async () => {
    const past = await bookingRow(pastId);
    expect(past.slot_id).toBe(pastSlotId);
    expect(past.teacher_id).toBe(teacher(0).id);
    expect((await slotsOf(e, teacher(0).id)).map((slot) => slot.id)).toEqual([pastSlotId]);
  });

  it('no longer offers the teacher on the parent’s booking page, and keeps the family’s other bookings', async () => {
    const body: BookingPage = await bookingPage(e, e.parent.token, e.code);
    expect(body.grid.map((group) => group.teacherId)).not.toContain(teacher(0).id);
    expect(body.grid.some((group) => group.teacherId === teacher(1).id)).toBe(true);
    expect(body.teachers.map((row) => row.teacherId)).not.toContain(teacher(0).id);
    expect(body.teachers).toHaveLength(3);
    for (const kid of body.children) {
      expect(kid.teachers.map((row) => row.teacherId)).not.toContain(teacher(0).id);
    }
    expect(body.bookings.map((booking) => booking.id)).toEqual([englishId]);
    // The live grid (user-slots-for-pt) for that teacher has nothing to offer either.
    const data = encodeURIComponent(JSON.stringify([{ studentId: child(0).id, teacherId: teacher(0).id }]));
    const slots = expectStatus<{ grid: BookingPage['grid'] }>(
      await e.http.get(
        `events/user-slots-for-pt?eventId=${e.eventId}&subjectTeacherData=${data}`,
        e.parent.token,
      ),
      200,
    );
    expect(slots.grid.map((group) => group.teacherId)).toEqual([teacher(1).id]);
    // The other family can book again, with another teacher.
    const other = await bookingPage(e, e.otherParent.token, e.code);
    expect(other.bookings).toEqual([]);
    expect(other.grid.map((group) => group.teacherId)).not.toContain(teacher(0).id);
  });

  it('ends the former teacher’s access: no account left when teaching was their only role', async () => {
    expect((await e.http.get('site/index', teacher(0).token)).statusCode).toBe(401);
    expectStatus(await removeRole(e, teacher(0).id, 'teacher'), 404);
  });

  it('removes a teacher with no bookings cleanly: slots gone, nobody mailed', async () => {
    const science = teacher(2);
    expect(await slotsOf(e, science.id)).toHaveLength(12);
    const outbox = await t.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = expectStatus<{ message: string }>(await removeRole(e, science.id, 'teacher'), 200);
    expect(res.message).toBe('Removed.');
    expect(await slotsOf(e, science.id)).toEqual([]);
    const after = await t.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(outbox.n));
    const body = await bookingPage(e, e.parent.token, e.code);
    expect(body.teachers.map((row) => row.teacherId)).not.toContain(science.id);
    expect(body.bookings.map((booking) => booking.id)).toEqual([englishId]);
  });

  it('keeps a teacher who is also a parent as a parent, with their bookings as a teacher cancelled', async () => {
    const english = teacher(1);
    expectStatus(
      await e.http.post('users/create-parent', e.admin.token, {
        email: english.email,
        firstName: english.firstName,
        lastName: english.lastName,
        sendInvite: false,
      }),
      200,
    );
    const res = expectStatus<{ message: string }>(await removeRole(e, english.id, 'teacher'), 200);
    expect(res.message).toBe('Teacher role removed.');
    expect((await bookingRow(englishId)).status).toBe('cancelled');
    expect(await slotsOf(e, english.id)).toEqual([]);
    const [mail] = (await mailsTo(t.db, e.parent.email, 'your booking was cancelled')).slice(-1);
    expect(mail?.text_body).toContain('16:30');
    const data = await home(e, english.token);
    expect(data.viewAsSelectorItems).toEqual([{ value: 'parent', label: 'Parent' }]);
    expect(data.teacherOpenEventsSummary).toEqual([]);
    expectStatus(await e.http.get(`events/details-teacher?eventId=${e.eventId}`, english.token), 403);
    // The family is left with no appointment at all, and the grid offers the one teacher left.
    const body = await bookingPage(e, e.parent.token, e.code);
    expect(body.bookings).toEqual([]);
    expect(body.grid.map((group) => group.teacherId)).toEqual([teacher(3).id]);
  });
});
