import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addPerson, api, expectStatus, loginAs } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  createEvent,
  createSection,
  daysAhead,
  type EventSchool,
  eventSchool,
  insertBooking,
} from './events-helpers';

// Issue 3: removing a person's last role removes the account, but bookings are the school's records.
describe('removing a person who has bookings', () => {
  let t: TestApp;
  let school: EventSchool;
  beforeAll(async () => {
    t = await createTestApp();
    school = await eventSchool(t, 'Records School');
  });
  afterAll(() => t.close());

  it('keeps the account (deactivated) and its bookings; an account without bookings goes', async () => {
    const http = api(t.app);
    const token = school.admin.token;
    const teacher = await addPerson(t, token, 'teacher', { sendInvite: false });
    const parent = await addMember(t, token, 'parent');
    const other = await addPerson(t, token, 'parent', { sendInvite: false });
    const eventId = await createEvent(http, token, 'Spring evening', school.types.parentTeacher);
    await createSection(http, token, eventId, {
      date: daysAhead(20),
      start: '16:00',
      end: '17:00',
      teachers: [{ teacherId: teacher.id }],
    });
    const slot = await t.db
      .selectFrom('slots')
      .select('id')
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    const bookingId = await insertBooking(t.db, slot.id, { parentId: parent.id });

    const removed = expectStatus<{ message: string }>(
      await http.post(`users/delete?id=${parent.id}&role=parent`, token),
      200,
    );
    expect(removed.message).toBe("Removed. Their past bookings are kept for the school's records.");
    const kept = await t.db
      .selectFrom('users')
      .select('status')
      .where('id', '=', parent.id)
      .executeTakeFirst();
    expect(kept?.status).toBe(0);
    const booking = await t.db
      .selectFrom('bookings')
      .select('parent_id')
      .where('id', '=', bookingId)
      .executeTakeFirst();
    expect(booking?.parent_id).toBe(parent.id);
    expect((await http.get('users/data', parent.token)).statusCode).toBe(401);
    expect((await loginAs(t.app, parent.email)).statusCode).toBe(403);
    const parents = expectStatus<{ items: Array<{ id: number }> }>(
      await http.get('users/parents', token),
      200,
    );
    expect(parents.items.map((p) => p.id)).not.toContain(parent.id);

    // Invited again later, the same account comes back, active, with its history.
    const back = expectStatus<{ id: number }>(
      await http.post('users/create-parent', token, {
        firstName: 'Back',
        lastName: 'Again',
        email: parent.email,
        sendInvite: false,
      }),
      200,
    );
    expect(back.id).toBe(parent.id);
    const again = await t.db
      .selectFrom('users')
      .select('status')
      .where('id', '=', parent.id)
      .executeTakeFirst();
    expect(again?.status).toBe(1);

    expectStatus(await http.post(`users/delete?id=${other.id}&role=parent`, token), 200);
    expect(
      await t.db.selectFrom('users').select('id').where('id', '=', other.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('the database refuses to delete a person who is on a booking', async () => {
    const http = api(t.app);
    const token = school.admin.token;
    const teacher = await addPerson(t, token, 'teacher', { sendInvite: false });
    const parent = await addPerson(t, token, 'parent', { sendInvite: false });
    const eventId = await createEvent(http, token, 'Summer evening', school.types.parentTeacher);
    await createSection(http, token, eventId, {
      date: daysAhead(30),
      start: '16:00',
      end: '17:00',
      teachers: [{ teacherId: teacher.id }],
    });
    const slot = await t.db
      .selectFrom('slots')
      .select('id')
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    await insertBooking(t.db, slot.id, { parentId: parent.id });
    await expect(t.db.deleteFrom('users').where('id', '=', parent.id).execute()).rejects.toMatchObject({
      code: '23503',
    });
  });
});
