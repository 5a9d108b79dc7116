import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  addMember,
  addPerson,
  api,
  expectStatus,
  type Member,
  type Person,
} from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  createEvent,
  createSection,
  type EventSchool,
  eventSchool,
  insertBooking,
  mailsTo,
  viewEvent,
} from './events-helpers';

// Spec §6: events are the admin's. Teachers, parents and students get 403 on every events route, a
// request without a session 401; another school's event, section, slot or person answers 404 exactly
// like a missing one, and nothing of the victim school changes.

type Fixture = {
  school: EventSchool;
  event: number;
  section: number;
  slot: number;
  parent: Person;
  teacher: Person;
};

let t: TestApp;
let http: Api;
let a: Fixture;
let b: Fixture;
let members: Record<'teacher' | 'parent' | 'student', Member>;

async function fixture(name: string): Promise<Fixture> {
  const school = await eventSchool(t, name);
  const token = school.admin.token;
  const teacher = await addPerson(t, token, 'teacher');
  const parent = await addPerson(t, token, 'parent');
  const event = await createEvent(http, token, `${name} evening`, school.types.parentTeacher);
  const section = await createSection(http, token, event, {
    date: '2026-09-10',
    start: '16:00',
    end: '16:30',
    teachers: [{ teacherId: teacher.id }],
  });
  await http.post(`events/add-recipients?eventId=${event}&saveme=1`, token, { userIds: [parent.id] });
  await http.post(`events/update-can-scan-user-ids?id=${event}`, token, { canScanUserIds: [teacher.id] });
  const slot = (await viewEvent(http, token, event)).slots[0]?.slots[0]?.id ?? 0;
  await insertBooking(t.db, slot, { parentId: parent.id });
  return { school, event, section: section.id, slot, parent, teacher };
}

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  a = await fixture('Alpha');
  b = await fixture('Beta');
  members = {
    teacher: await addMember(t, a.school.admin.token, 'teacher'),
    parent: await addMember(t, a.school.admin.token, 'parent'),
    student: await addMember(t, a.school.admin.token, 'student'),
  };
});
afterAll(() => t.close());

type Route = { method: 'GET' | 'POST'; path: string; body?: unknown };

/** Every events route, each with a request an admin of the fixture's school may make. */
function routes(f: Fixture, ids = f): Route[] {
  const section = {
    date: '2026-09-10',
    start: '16:00',
    end: '16:30',
    teachers: [{ teacherId: ids.teacher.id }],
  };
  return [
    { method: 'GET', path: 'events/index' },
    { method: 'POST', path: 'events/create', body: { name: 'Denied', eventTypeId: f.school.types.booking } },
    { method: 'GET', path: `events/view?id=${ids.event}` },
    { method: 'GET', path: 'events/view?id=current' },
    { method: 'GET', path: 'events/current' },
    { method: 'POST', path: `events/update?id=${ids.event}`, body: { name: 'Taken over' } },
    { method: 'POST', path: `events/update-booking-notification-status?id=${ids.event}` },
    { method: 'POST', path: `events/delete?id=${ids.event}`, body: { confirm: true } },
    { method: 'POST', path: `events/create-section?eventId=${ids.event}`, body: section },
    { method: 'POST', path: `events/update-section?id=${ids.section}`, body: { ...section, confirm: true } },
    {
      method: 'POST',
      path: `events/delete-section?eventId=${ids.event}&sectionId=${ids.section}`,
      body: { confirm: true },
    },
    { method: 'POST', path: `events/add-recipients?eventId=${ids.event}&saveme=1`, body: { all: 'parents' } },
    { method: 'POST', path: `events/remove-recipient?eventId=${ids.event}`, body: { userId: ids.parent.id } },
    { method: 'POST', path: `events/update-can-scan-user-ids?id=${ids.event}`, body: { canScanUserIds: [] } },
    {
      method: 'POST',
      path: `events/remove-can-scan-user?eventId=${ids.event}`,
      body: { userId: ids.teacher.id },
    },
    { method: 'GET', path: 'events/get-all-parents' },
    { method: 'GET', path: 'events/get-all-students' },
    { method: 'GET', path: `events/download-bookings?eventId=${ids.event}` },
    { method: 'POST', path: `events/update-slot-all?eventId=${ids.event}`, body: { location: 'Roof' } },
    { method: 'POST', path: 'events/update-slot-location', body: { slotId: ids.slot, location: 'Roof' } },
    {
      method: 'POST',
      path: 'events/update-slot-location',
      body: { sectionId: ids.section, location: 'Roof' },
    },
    {
      method: 'POST',
      path: `message-types/send?eventId=${ids.event}`,
      body: { messageTypeName: 'inviteToBook' },
    },
    {
      method: 'POST',
      path: 'message-types/send-to-single-recipient',
      body: { eventId: ids.event, userId: ids.parent.id, messageTypeName: 'reminder' },
    },
  ];
}

const send = (route: Route, token?: string) =>
  route.method === 'GET' ? http.get(route.path, token) : http.post(route.path, token, route.body);

/** What school A's admin sees of its event: must not move while others try. */
async function snapshotA() {
  const event = await viewEvent(http, a.school.admin.token, a.event);
  const mails = await mailsTo(t.db, a.parent.email);
  return { event: { ...event, createdAtHuman: '' }, mails: mails.length };
}

describe('role denial', () => {
  it('answers 403 to teachers, parents and students on every events route, 401 without a session', async () => {
    const before = await snapshotA();
    for (const role of ['teacher', 'parent', 'student'] as const) {
      for (const route of routes(a)) {
        const res = await send(route, members[role].token);
        expect({ role, route: route.path, status: res.statusCode, body: res.json() }).toEqual({
          role,
          route: route.path,
          status: 403,
          body: { message: 'You do not have permission to do that.' },
        });
      }
    }
    for (const route of routes(a)) {
      const res = await send(route);
      expect({ route: route.path, status: res.statusCode, body: res.json() }).toEqual({
        route: route.path,
        status: 401,
        body: { message: 'Please log in.', action: 'logout' },
      });
    }
    expect(await snapshotA()).toEqual(before);
  });
});

describe('cross-school', () => {
  it("answers 404 to another school's admin for every id of school A, as for a missing id, and changes nothing", async () => {
    const before = await snapshotA();
    const missing: Fixture = {
      ...a,
      event: 999_999,
      section: 999_998,
      slot: 999_997,
      parent: { ...a.parent, id: 999_996 },
      teacher: { ...a.teacher, id: 999_995 },
    };
    const withIds = (ids: Fixture) =>
      routes(b, ids).filter((route) =>
        /[?&](id|eventId)=\d|slotId|sectionId|send-to-single/.test(
          `${route.path}${JSON.stringify(route.body ?? {})}`,
        ),
      );
    const attacks = withIds(a);
    const misses = withIds(missing);
    expect(attacks.length).toBeGreaterThanOrEqual(17);
    for (const [index, route] of attacks.entries()) {
      const res = await send(route, b.school.admin.token);
      const control = await send(misses[index] as Route, b.school.admin.token);
      expect({ route: route.path, status: res.statusCode, body: res.json() }).toEqual({
        route: route.path,
        status: 404,
        body: control.json(),
      });
    }
    expect(await snapshotA()).toEqual(before);
  });

  it("does not list, count or accept school A's events and people", async () => {
    const list = expectStatus<{ events: Array<{ id: number }> }>(
      await http.get('events/index', b.school.admin.token),
      200,
    );
    expect(list.events.map((event) => event.id)).not.toContain(a.event);
    const parents = expectStatus<{ items: Array<{ id: number }> }>(
      await http.get('events/get-all-parents', b.school.admin.token),
      200,
    );
    expect(parents.items.map((parent) => parent.id)).toEqual([b.parent.id]);
    // A's people as B's recipients, scanners or teachers: unknown.
    const recipients = await http.post(`events/add-recipients?eventId=${b.event}`, b.school.admin.token, {
      userIds: [a.parent.id],
    });
    expectStatus(recipients, 422);
    const scanners = await http.post(`events/update-can-scan-user-ids?id=${b.event}`, b.school.admin.token, {
      canScanUserIds: [a.teacher.id],
    });
    expectStatus(scanners, 422);
    const section = await http.post(`events/create-section?eventId=${b.event}`, b.school.admin.token, {
      date: '2026-09-11',
      start: '16:00',
      end: '16:30',
      teachers: [{ teacherId: a.teacher.id }],
    });
    expectStatus(section, 422);
    // B's section through A's event id: the pair must match.
    const mixed = await http.post(
      `events/delete-section?eventId=${b.event}&sectionId=${a.section}`,
      b.school.admin.token,
      { confirm: true },
    );
    expectStatus(mixed, 404);
  });

  it('cannot link rows across schools even by writing to the database directly', async () => {
    const insert = t.db
      .insertInto('event_recipients')
      .values({ school_id: b.school.schoolId, event_id: b.event, user_id: a.parent.id })
      .execute();
    await expect(insert).rejects.toMatchObject({ code: '23503' });
    const slot = t.db
      .insertInto('slots')
      .values({
        school_id: b.school.schoolId,
        event_id: b.event,
        section_id: a.section,
        starts_at: new Date('2026-09-10T15:00:00Z'),
        ends_at: new Date('2026-09-10T15:10:00Z'),
      })
      .execute();
    await expect(slot).rejects.toMatchObject({ code: '23503' });
  });
});
