import { RECIPIENTS_PREVIEW_NAMES } from '@parley/domain/events';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner } from '../../src/db/scope';
import { type Api, addPerson, api, expectStatus, type Person } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  createEvent,
  createSection,
  type EventSchool,
  eventSchool,
  insertBooking,
  mailsTo,
  recipientsOf,
  viewEvent,
} from './events-helpers';

// Spec §7 Events (add-recipients with preview and saveme=1, remove-recipient, update-can-scan-user-ids,
// remove-can-scan-user, get-all-parents, get-all-students, download-bookings) and §7 Messages
// (message-types/send?eventId, send-to-single-recipient): mails go through the outbox, one per recipient.

let t: TestApp;
let http: Api;
let school: EventSchool;
let token: string;
let parents: Person[];
let students: Person[];
let teacher: Person;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  school = await eventSchool(t, 'Messages Academy');
  token = school.admin.token;
  students = [
    await addPerson(t, token, 'student', { firstName: 'Sam', lastName: 'Brown' }),
    await addPerson(t, token, 'student', { firstName: 'Tia', lastName: 'Green' }),
  ];
  parents = [
    await addPerson(t, token, 'parent', {
      firstName: 'Pat',
      lastName: 'Brown',
      studentIds: [students[0]?.id],
    }),
    await addPerson(t, token, 'parent', {
      firstName: 'Quinn',
      lastName: 'Green',
      studentIds: [students[1]?.id],
    }),
    await addPerson(t, token, 'parent', { firstName: 'Rae', lastName: 'White' }),
  ];
  teacher = await addPerson(t, token, 'teacher', { firstName: 'Tom', lastName: 'Teach' });
});
afterAll(() => t.close());

const ids = (people: Array<{ id: number }>) => people.map((person) => person.id);
const p = (index: number) => parents[index] as Person;
const s = (index: number) => students[index] as Person;

describe('events/get-all-parents and events/get-all-students', () => {
  it('list the active parents and students of the school by name', async () => {
    const allParents = expectStatus<{ items: Person[] }>(
      await http.get('events/get-all-parents', token),
      200,
    ).items;
    expect(allParents).toEqual([
      { id: p(0).id, name: 'Pat Brown', email: p(0).email },
      { id: p(1).id, name: 'Quinn Green', email: p(1).email },
      { id: p(2).id, name: 'Rae White', email: p(2).email },
    ]);
    const allStudents = expectStatus<{ items: Person[] }>(
      await http.get('events/get-all-students', token),
      200,
    ).items;
    expect(ids(allStudents)).toEqual(ids(students));
  });
});

describe('recipients', () => {
  it('previews who would be added, then saves with saveme=1', async () => {
    const id = await createEvent(http, token, 'Recipients event', school.types.parentTeacher);
    const preview = await http.post(`events/add-recipients?eventId=${id}`, token, {
      userIds: [p(0).id, s(0).id],
    });
    expect(expectStatus(preview, 200)).toEqual({
      toAdd: [
        { id: p(0).id, name: 'Pat Brown', email: p(0).email },
        { id: s(0).id, name: 'Sam Brown', email: s(0).email },
      ],
      toAddCount: 2,
      alreadyAdded: [],
      alreadyAddedCount: 0,
      added: 0,
      message: '2 to add, 0 already added.',
    });
    expect((await recipientsOf(http, token, id)).items).toEqual([]);
    expect((await viewEvent(http, token, id)).recipientCount).toBe(0);
    const saved = await http.post(`events/add-recipients?eventId=${id}&saveme=1`, token, {
      userIds: [p(0).id, s(0).id],
    });
    expect(expectStatus(saved, 200)).toMatchObject({ added: 2, message: '2 recipients added.' });
    // "All parents": the ones already there are named as such.
    const all = await http.post(`events/add-recipients?eventId=${id}`, token, { all: 'parents' });
    expect(expectStatus(all, 200)).toMatchObject({
      toAdd: [{ id: p(1).id }, { id: p(2).id }],
      alreadyAdded: [{ id: p(0).id }],
      message: '2 to add, 1 already added.',
    });
    expectStatus(
      await http.post(`events/add-recipients?eventId=${id}&saveme=1`, token, { all: 'parents' }),
      200,
    );
    const list = await recipientsOf(http, token, id);
    const item = (person: Person, name: string, role: 'parent' | 'student', familyId: number) => ({
      id: person.id,
      name,
      email: person.email,
      roles: [role],
      booked: false,
      familyId,
    });
    // Pat is Sam's parent: one family, keyed by its smallest id.
    expect(list.items).toEqual([
      item(p(0), 'Pat Brown', 'parent', s(0).id),
      item(s(0), 'Sam Brown', 'student', s(0).id),
      item(p(1), 'Quinn Green', 'parent', s(1).id),
      item(p(2), 'Rae White', 'parent', p(2).id),
    ]);

    const removed = await http.post(`events/remove-recipient?eventId=${id}`, token, { userId: p(2).id });
    expect(expectStatus(removed, 200)).toEqual({ message: 'Recipient removed.' });
    expectStatus(await http.post(`events/remove-recipient?eventId=${id}`, token, { userId: p(2).id }), 404);
    expect(ids((await recipientsOf(http, token, id)).items)).not.toContain(p(2).id);
    expect((await viewEvent(http, token, id)).recipientCount).toBe(3);
  });

  it('counts every parent of a large school but names only the first of them, by name', async () => {
    const big = await eventSchool(t, 'Large Recipients Academy');
    const id = await createEvent(http, big.admin.token, 'Whole school', big.types.booking);
    await asOwner(async () => {
      await sql`insert into users (school_id, first_name, last_name, email, status)
        select ${big.schoolId}, 'Parent', 'No ' || to_char(n, 'FM000'), 'many' || n || '@preview.example.org', 1
        from generate_series(1, ${RECIPIENTS_PREVIEW_NAMES + 10}) n`.execute(t.db);
      await sql`insert into user_roles (user_id, school_id, role)
        select id, school_id, 'parent' from users where email like 'many%@preview.example.org'`.execute(t.db);
    });
    const preview = expectStatus<{ toAdd: Person[]; toAddCount: number; alreadyAddedCount: number }>(
      await http.post(`events/add-recipients?eventId=${id}`, big.admin.token, { all: 'parents' }),
      200,
    );
    expect(preview.toAddCount).toBe(RECIPIENTS_PREVIEW_NAMES + 10);
    expect(preview.toAdd).toHaveLength(RECIPIENTS_PREVIEW_NAMES);
    expect(preview.toAdd[0]).toMatchObject({ name: 'Parent No 001' });
    expect(preview.toAdd.at(-1)).toMatchObject({ name: `Parent No 0${RECIPIENTS_PREVIEW_NAMES}` });
    const saved = expectStatus<{ added: number; alreadyAddedCount: number }>(
      await http.post(`events/add-recipients?eventId=${id}&saveme=1`, big.admin.token, { all: 'parents' }),
      200,
    );
    expect(saved.added).toBe(RECIPIENTS_PREVIEW_NAMES + 10);
    const again = await http.post(`events/add-recipients?eventId=${id}`, big.admin.token, { all: 'parents' });
    expect(expectStatus(again, 200)).toMatchObject({
      toAdd: [],
      toAddCount: 0,
      alreadyAddedCount: RECIPIENTS_PREVIEW_NAMES + 10,
      message: `0 to add, ${RECIPIENTS_PREVIEW_NAMES + 10} already added.`,
    });
  });

  it('refuses people who are not parents or students of the school, and an empty request', async () => {
    const id = await createEvent(http, token, 'Strict recipients', school.types.booking);
    const other = await eventSchool(t, 'Recipient Lender');
    const foreign = await addPerson(t, other.admin.token, 'parent');
    const res = await http.post(`events/add-recipients?eventId=${id}`, token, {
      userIds: [teacher.id, foreign.id, p(0).id],
    });
    expect(expectStatus(res, 422).errors).toEqual({
      userIds: [`Unknown parent or student: ${teacher.id}, ${foreign.id}`],
    });
    expect(
      expectStatus(await http.post(`events/add-recipients?eventId=${id}`, token, {}), 422).errors,
    ).toEqual({
      userIds: ['Choose people or a whole group.'],
    });
    expect(
      expectStatus(await http.post(`events/add-recipients?eventId=${id}`, token, { all: 'teachers' }), 422)
        .errors,
    ).toHaveProperty('all');
  });
});

describe('ticket scanners', () => {
  it('replaces the set, and removes one', async () => {
    const id = await createEvent(http, token, 'Concert', school.types.ticketed);
    const res = await http.post(`events/update-can-scan-user-ids?id=${id}`, token, {
      canScanUserIds: [teacher.id, s(1).id, school.admin.id, teacher.id],
    });
    const saved = expectStatus<{ canScanUserIds: number[]; message: string }>(res, 200);
    expect(saved.message).toBe('Ticket scanners saved.');
    expect([...saved.canScanUserIds].sort()).toEqual([school.admin.id, s(1).id, teacher.id].sort());
    let event = await viewEvent(http, token, id);
    expect([...event.canScanUserIds].sort()).toEqual([school.admin.id, s(1).id, teacher.id].sort());
    expect(event.scanners.map((scanner) => scanner.name)).toContain('Tom Teach');
    const parentRefused = await http.post(`events/update-can-scan-user-ids?id=${id}`, token, {
      canScanUserIds: [p(0).id],
    });
    expect(expectStatus(parentRefused, 422).errors).toEqual({
      canScanUserIds: [`Unknown admin, teacher or student: ${p(0).id}`],
    });
    const removed = await http.post(`events/remove-can-scan-user?eventId=${id}`, token, {
      userId: teacher.id,
    });
    expect(expectStatus(removed, 200)).toMatchObject({ message: 'Ticket scanner removed.' });
    event = await viewEvent(http, token, id);
    expect(event.canScanUserIds).not.toContain(teacher.id);
    expect(event.canScanUserIds).toHaveLength(2);
    expectStatus(
      await http.post(`events/remove-can-scan-user?eventId=${id}`, token, { userId: teacher.id }),
      404,
    );
    expectStatus(
      await http.post(`events/update-can-scan-user-ids?id=${id}`, token, { canScanUserIds: [] }),
      200,
    );
    expect((await viewEvent(http, token, id)).canScanUserIds).toEqual([]);
  });
});

describe('message-types/send?eventId and send-to-single-recipient', () => {
  let eventId: number;
  let code: string;

  beforeAll(async () => {
    eventId = await createEvent(http, token, 'Spring consultations', school.types.parentTeacher);
    await http.post(`events/update?id=${eventId}`, token, { bookingPageMessage: 'Ten minutes per teacher.' });
    await createSection(http, token, eventId, {
      date: '2026-03-12',
      start: '16:00',
      end: '16:30',
      teachers: [{ teacherId: teacher.id }],
    });
    await http.post(`events/add-recipients?eventId=${eventId}&saveme=1`, token, { userIds: ids(parents) });
    const event = await viewEvent(http, token, eventId);
    code = event.code;
    await insertBooking(t.db, event.slots[0]?.slots[0]?.id ?? 0, { parentId: p(0).id, studentId: s(0).id });
  });

  it('mails every recipient once, with their own personal link to the parent-teacher booking page', async () => {
    const res = await http.post(`message-types/send?eventId=${eventId}`, token, {
      messageTypeName: 'inviteToBook',
    });
    expect(expectStatus(res, 200)).toEqual({ sent: 3, message: 'Invitation sent to 3 recipients.' });
    const links = new Set<string>();
    for (const parent of parents) {
      const mails = await mailsTo(t.db, parent.email, 'book your place');
      links.add(mails[0]?.links[0] ?? '');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe('Messages Academy: book your place for Spring consultations');
      expect(mails[0]?.links).toEqual([
        expect.stringMatching(new RegExp(`^http://parley\\.test/book/ptevent/${code}\\?link=[\\w-]{40,}$`)),
      ]);
      expect(mails[0]?.text_body).toContain('When: Thu 12 Mar 2026, 16:00 – 16:30');
      expect(mails[0]?.text_body).toContain('Ten minutes per teacher.');
    }
    expect(links.size).toBe(3);
  });

  it('reminds only those who have not booked when told', async () => {
    const res = await http.post(`message-types/send?eventId=${eventId}`, token, {
      messageTypeName: 'reminder',
      audience: 'notBooked',
    });
    expect(expectStatus(res, 200)).toEqual({ sent: 2, message: 'Reminder sent to 2 recipients.' });
    expect(await mailsTo(t.db, p(0).email, 'Reminder')).toHaveLength(0);
    expect(await mailsTo(t.db, p(1).email, 'Reminder: Spring consultations')).toHaveLength(1);
    expect(await mailsTo(t.db, p(2).email, 'Reminder: Spring consultations')).toHaveLength(1);
    expect((await recipientsOf(http, token, eventId)).items.map((r) => r.booked)).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('mails a single recipient, and only a recipient', async () => {
    const res = await http.post('message-types/send-to-single-recipient', token, {
      eventId,
      userId: p(2).id,
      messageTypeName: 'reminder',
    });
    expect(expectStatus(res, 200)).toEqual({ sent: 1, message: 'Reminder sent to 1 recipient.' });
    expect(await mailsTo(t.db, p(2).email, 'Reminder')).toHaveLength(2);
    const stranger = await http.post('message-types/send-to-single-recipient', token, {
      eventId,
      userId: s(1).id,
      messageTypeName: 'reminder',
    });
    expect(expectStatus(stranger, 404)).toEqual({ message: 'Recipient not found.' });
  });

  it('links other events to /book/event/{code}, and sends nothing for a disabled event', async () => {
    const tours = await createEvent(http, token, 'Tours', school.types.booking);
    await http.post(`events/add-recipients?eventId=${tours}&saveme=1`, token, { userIds: [s(1).id] });
    expectStatus(
      await http.post(`message-types/send?eventId=${tours}`, token, { messageTypeName: 'inviteToBook' }),
      200,
    );
    const [mail] = await mailsTo(t.db, s(1).email, 'Tours');
    const { code: toursCode } = await viewEvent(http, token, tours);
    expect(mail?.links[0]).toMatch(new RegExp(`^http://parley\\.test/book/event/${toursCode}\\?link=`));

    await http.post(`events/update?id=${tours}`, token, { status: 0 });
    const refused = await http.post(`message-types/send?eventId=${tours}`, token, {
      messageTypeName: 'reminder',
    });
    expect(expectStatus(refused, 409).message).toBe(
      'This event is currently disabled. Review settings and enable to allow bookings. No messages were sent.',
    );
    expect(await mailsTo(t.db, s(1).email, 'Reminder')).toHaveLength(0);
  });

  it('answers an empty audience, a missing event id and unknown message types clearly', async () => {
    const empty = await createEvent(http, token, 'Nobody invited', school.types.booking);
    expect(
      expectStatus(
        await http.post(`message-types/send?eventId=${empty}`, token, { messageTypeName: 'reminder' }),
        200,
      ),
    ).toEqual({ sent: 0, message: 'No recipients to message.' });
    const noEvent = await http.post('message-types/send', token, { messageTypeName: 'inviteToBook' });
    expect(expectStatus(noEvent, 422).errors).toEqual({ eventId: ['Required.'] });
    const unknown = await http.post(`message-types/send?eventId=${empty}`, token, {
      messageTypeName: 'spam',
    });
    expect(expectStatus(unknown, 422).errors).toEqual({ messageTypeName: ['Unknown message type.'] });
    expectStatus(
      await http.post('message-types/send?eventId=999999', token, { messageTypeName: 'reminder' }),
      404,
    );
    const audience = await http.post(`message-types/send?eventId=${empty}`, token, {
      messageTypeName: 'reminder',
      audience: 'everyone',
    });
    expect(expectStatus(audience, 422).errors).toHaveProperty('audience');
  });
});

describe('events/download-bookings', () => {
  it('is a CSV for Excel: BOM, one row per booking, local times in the school zone, safe fields', async () => {
    const ny = await eventSchool(t, 'CSV School', 'America/New_York');
    const nyTeacher = await addPerson(t, ny.admin.token, 'teacher', {
      firstName: 'Zoë',
      lastName: 'Ångström',
    });
    const kid = await addPerson(t, ny.admin.token, 'student', { firstName: '=SUM(A1)', lastName: 'Kit' });
    const mum = await addPerson(t, ny.admin.token, 'parent', { firstName: 'Ann', lastName: 'O"Neil, Jr' });
    const subject = expectStatus<{ id: number }>(
      await http.post('subjects/create', ny.admin.token, { name: 'Maths' }),
      200,
    ).id;
    const id = await createEvent(http, ny.admin.token, 'Fall Conferences!', ny.types.parentTeacher);
    await createSection(http, ny.admin.token, id, {
      date: '2026-11-02',
      start: '15:00',
      end: '15:30',
      location: 'Gym',
      teachers: [{ teacherId: nyTeacher.id, location: 'Room 101' }],
    });
    const slots = (await viewEvent(http, ny.admin.token, id)).slots[0]?.slots ?? [];
    // Mum first booked 15:00 and cancelled it, then booked 15:10: one live slot per teacher and parent
    // (bookings_parent_teacher_once), so the cancellation comes before the second booking.
    await insertBooking(t.db, slots[0]?.id ?? 0, { parentId: mum.id });
    await t.db
      .updateTable('bookings')
      .set({ status: 'cancelled', cancelled_at: new Date() })
      .where('slot_id', '=', slots[0]?.id ?? 0)
      .execute();
    await insertBooking(t.db, slots[1]?.id ?? 0, { parentId: mum.id, studentId: kid.id, subjectId: subject });

    const res = await http.get(`events/download-bookings?eventId=${id}`, ny.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="bookings-fall-conferences.csv"');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(res.body.split('\r\n')).toEqual([
      '\uFEFFDate,Time,Teacher,Location,Parent,Student,Subject,Status',
      // 15:00 in New York on 2 November 2026 (EST) is 20:00 UTC: the file says 15:00, 15:10.
      '2026-11-02,15:00,Zoë Ångström,Room 101,"Ann O""Neil, Jr",,,Cancelled',
      `2026-11-02,15:10,Zoë Ångström,Room 101,"Ann O""Neil, Jr",'=SUM(A1) Kit,Maths,Booked`,
      '',
    ]);
    expect(slots[0]?.startsAt).toBe('2026-11-02T20:00:00.000Z');
    expectStatus(await http.get('events/download-bookings?eventId=999999', ny.admin.token), 404);
  });
});
