import { LIVE_CLOSE } from '@parley/domain/live-timing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announces, type Db } from '../../src/db/database';
import { LIVE_RECHECK_MS, LiveHub } from '../../src/modules/live/live-hub';
import { queueNextUpNotices } from '../../src/modules/live/timing.service';
import { issueEventLinksWithoutPassword, revokeEventLinks } from '../../src/modules/tokens/tokens.repository';
import { sendDuePush } from '../../src/push/push-worker';
import { vapidKeysOnce } from '../../src/push/vapid';
import {
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  home,
  sessionFor,
} from '../booking/booking-helpers';
import { expectStatus, type Member, newSchool } from '../directory/directory-helpers';
import { waitFor } from '../faults/fault-support';
import { type Browser, LOCAL_PUSH, type PushService, pushService } from '../push/push-endpoint';
import { createTestApp, type TestApp } from '../test-app';
import { anotherProcess, connect, heard, manualClock, ready, type Socket, send } from './live-sockets';

// Live timing on the night (issue 41): a teacher says "running N minutes late"; each family still to see
// them gets a push with their new expected time, and their open pages hear it at once on the live channel;
// "you're next" goes once per booking a few minutes before its expected time.

const timingNews = (socket: Socket) => socket.messages.filter((m) => m.type === 'timing');

describe('a teacher running late', () => {
  let t: TestApp;
  let e: Evening;
  let service: PushService;
  let keys: ReturnType<typeof vapidKeysOnce>;
  let parentPhone: Browser;
  let teacher: Member;
  let slotStarts: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ pushGuard: LOCAL_PUSH });
    service = await pushService();
    e = await evening(t, { quick: true, timezone: 'Europe/London' });
    keys = vapidKeysOnce(t.db, t.config);
    teacher = e.teachers[0] as Member;
    // The parent sees teacher 0 about the first child; the other family sees teacher 1 only.
    const page = await bookingPage(e, e.parent.token, e.code);
    const [slotId] = freeSlots(page.grid, teacher.id);
    const result = await booked(e, e.parent.token, [
      { slotId: slotId ?? 0, studentId: e.children[0]?.id ?? 0, subjectId: e.subjects[0] ?? 0 },
    ]);
    slotStarts = result.bookings[0]?.startsAt ?? '';
    const [otherSlot] = freeSlots(page.grid, e.teachers[1]?.id ?? 0);
    await booked(e, e.otherParent.token, [
      { slotId: otherSlot ?? 0, studentId: e.otherChild.id, subjectId: e.subjects[1] ?? 0 },
    ]);
    parentPhone = service.browser('parent');
    expectStatus(
      await e.http.post('user/push-subscription', e.parent.token, {
        endpoint: parentPhone.endpoint,
        keys: parentPhone.keys,
      }),
      200,
    );
    await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
    service.received.length = 0;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.ws.close();
    await t.close();
    await service.close();
  });

  const late = (token: string, body: Record<string, unknown>) =>
    e.http.post('events/running-late', token, body);
  const pushes = () => service.received.map((request) => parentPhone.decrypt(request.body));

  it('reaches the family still to see the teacher: home, booking page, push and open page', async () => {
    const parentSocket = await ready(t.app, { type: 'hello', token: e.parent.token });
    const otherSocket = await ready(t.app, { type: 'hello', token: e.otherParent.token });
    sockets.push(parentSocket, otherSocket);

    const answer = expectStatus<{ message: string; lateMinutes: number }>(
      await late(teacher.token, { eventId: e.eventId, minutes: 10 }),
      200,
    );
    expect(answer).toEqual({
      message: 'Families have been told you are running 10 minutes late.',
      lateMinutes: 10,
    });

    // The open page hears which event changed, and nothing of it; the other family hears nothing.
    await waitFor('the news', () => timingNews(parentSocket).length === 1, 5000, 10);
    expect(timingNews(parentSocket)).toEqual([{ type: 'timing', eventId: e.eventId }]);

    // 16:00 booked, 16:10 expected (the school's zone).
    const page = await bookingPage(e, e.parent.token, e.code);
    expect(page.lateNotes).toEqual([
      {
        bookingId: page.bookings[0]?.id,
        lateMinutes: 10,
        text: 'Running 10 minutes late: expected at 16:10',
      },
    ]);
    const item = (await home(e, e.parent.token)).parentOpenEventsSummary.find((i) => i.id === e.eventId);
    expect(item?.lateNotes).toEqual([
      {
        teacherName: `${teacher.firstName} ${teacher.lastName}`,
        lateMinutes: 10,
        time: '16:00',
        expectedTime: '16:10',
        text: `${teacher.firstName} ${teacher.lastName} is running 10 minutes late: your 16:00 appointment is expected at 16:10.`,
      },
    ]);
    // The teacher's schedule says it too.
    const schedule = expectStatus<{ lateMinutes: number }>(
      await e.http.get(`events/details-teacher?eventId=${e.eventId}`, teacher.token),
      200,
    );
    expect(schedule.lateMinutes).toBe(10);

    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(1);
    expect(pushes()).toEqual([
      {
        action: 'booking',
        title: 'Year 9 consultations: running late',
        body: `${teacher.firstName} ${teacher.lastName} is running 10 minutes late. Your 16:00 appointment is now expected at 16:10.`,
        url: '/home',
      },
    ]);

    // The other family (teacher 1 only) saw nothing: not on its page, not on its home.
    expect((await bookingPage(e, e.otherParent.token, e.code)).lateNotes).toEqual([]);
    const others = (await home(e, e.otherParent.token)).parentOpenEventsSummary;
    expect(others.flatMap((i) => i.lateNotes)).toEqual([]);
    // Teacher 1 running late reaches the other family: its socket's only news is that one.
    expectStatus(await late(e.teachers[1]?.token ?? '', { eventId: e.eventId, minutes: 5 }), 200);
    await waitFor('the other news', () => timingNews(otherSocket).length === 1, 5000, 10);
    expect(timingNews(parentSocket)).toHaveLength(1);
  });

  it('says the same lateness once, and back on time clears it', async () => {
    service.received.length = 0;
    expectStatus(await late(teacher.token, { eventId: e.eventId, minutes: 10 }), 200);
    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(0);
    const answer = expectStatus<{ message: string }>(
      await late(teacher.token, { eventId: e.eventId, minutes: 0 }),
      200,
    );
    expect(answer.message).toBe('Families have been told you are back on time.');
    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(1);
    expect(pushes()[0]).toMatchObject({ title: 'Year 9 consultations: back on time' });
    expect((await bookingPage(e, e.parent.token, e.code)).lateNotes).toEqual([]);
    const item = (await home(e, e.parent.token)).parentOpenEventsSummary.find((i) => i.id === e.eventId);
    expect(item?.lateNotes).toEqual([]);
  });

  it('is the teacher’s own to say, or an admin’s; for a teacher of the event; in range', async () => {
    // A parent, a student: not theirs to say.
    expect((await late(e.parent.token, { eventId: e.eventId, minutes: 5 })).statusCode).toBe(403);
    expect((await late(e.children[0]?.token ?? '', { eventId: e.eventId, minutes: 5 })).statusCode).toBe(403);
    // A teacher for another teacher: no. The admin for a teacher: yes.
    const other = { eventId: e.eventId, teacherId: e.teachers[1]?.id, minutes: 5 };
    expect((await late(teacher.token, other)).statusCode).toBe(403);
    expectStatus(await late(e.admin.token, other), 200);
    // A teacher with no slots at the event, named by the field.
    const outsider = await newSchool(t, 'Elsewhere Academy');
    const body = expectStatus<{ errors: Record<string, string[]> }>(
      await late(e.admin.token, { eventId: e.eventId, teacherId: e.admin.id, minutes: 5 }),
      422,
    );
    expect(body.errors).toEqual({ teacherId: ['That teacher has no appointments at this event.'] });
    // Another school's event is not found.
    expect((await late(outsider.admin.token, { eventId: e.eventId, minutes: 5 })).statusCode).toBe(404);
    // Out of range, not a number, an unknown field: 4xx naming the field.
    for (const bad of [
      { minutes: 121 },
      { minutes: -1 },
      { minutes: 2.5 },
      { minutes: '10' },
      { minutes: 2 ** 63 },
    ]) {
      const answer = await late(teacher.token, { eventId: e.eventId, ...bad });
      expect(answer.statusCode, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode).toBeLessThan(500);
      expect(answer.json().errors).toHaveProperty('minutes');
    }
  });

  it('opens the live channel to a session or a personal link only', async () => {
    const closedWith = async (hello: unknown) => (await connect(t.app, hello)).closed;
    expect(await closedWith({ type: 'hello', token: 'not-a-session' })).toBe(LIVE_CLOSE.unauthorized);
    expect(await closedWith('not json')).toBe(LIVE_CLOSE.unauthorized);
    expect(await closedWith({ type: 'hello', token: e.parent.token, extra: 1 })).toBe(
      LIVE_CLOSE.unauthorized,
    );
    expect(await closedWith({ type: 'hello', token: '\u0000' })).toBe(LIVE_CLOSE.unauthorized);
    // A plain GET is told to upgrade.
    expect((await t.app.inject({ method: 'GET', url: '/api/live' })).statusCode).toBe(426);
    // 100 KB is more than the channel reads: the socket is closed (1009, message too big).
    expect(await closedWith({ type: 'hello', token: 'x'.repeat(100_000) })).toBe(1009);
    // The personal link of an invitation mail (a family without a password) opens it.
    const links = await issueEventLinksWithoutPassword(t.db, {
      schoolId: e.schoolId,
      eventId: e.eventId,
      userIds: [e.parent.id],
    });
    const linked = await ready(t.app, { type: 'hello', link: links.get(e.parent.id) });
    sockets.push(linked);
    expectStatus(await late(teacher.token, { eventId: e.eventId, minutes: 15 }), 200);
    await waitFor('the news by link', () => timingNews(linked).length === 1, 5000, 10);
  });

  it('says "you\'re next" once, a few minutes before the expected time', async () => {
    await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
    service.received.length = 0;
    // Teacher 0 is 15 minutes late (above): the 16:00 appointment is expected at 16:15.
    const starts = new Date(slotStarts).getTime();
    const minutes = (n: number) => new Date(starts + n * 60_000);
    expect(await queueNextUpNotices(t.db, minutes(5))).toBe(0);
    expect(await queueNextUpNotices(t.db, minutes(10))).toBe(1);
    expect(await queueNextUpNotices(t.db, minutes(11))).toBe(0);
    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(1);
    expect(pushes()).toEqual([
      {
        action: 'booking',
        title: "Year 9 consultations: you're next",
        body: `You're next with ${teacher.firstName} ${teacher.lastName} at 16:15.`,
        url: '/home',
      },
    ]);
  });
});

describe.runIf(process.env.TEST_DB === 'pg')('a teacher running late, told by another server process', () => {
  let t: TestApp;
  let elsewhere: Awaited<ReturnType<typeof anotherProcess>>;
  let e: Evening;

  beforeAll(async () => {
    t = await createTestApp();
    e = await evening(t, { quick: true });
    elsewhere = await anotherProcess(t);
  });
  afterAll(async () => {
    await elsewhere?.close();
    await t.close();
  });

  it('reaches a page connected to the other process', async () => {
    const teacher = e.teachers[0] as Member;
    const page = await bookingPage(e, e.parent.token, e.code);
    await booked(e, e.parent.token, [
      {
        slotId: freeSlots(page.grid, teacher.id)[0] ?? 0,
        studentId: e.children[0]?.id ?? 0,
        subjectId: e.subjects[0] ?? 0,
      },
    ]);
    if (!elsewhere) throw new Error('no second process');
    const socket = await ready(elsewhere.app, { type: 'hello', token: e.parent.token });
    expectStatus(
      await e.http.post('events/running-late', teacher.token, { eventId: e.eventId, minutes: 10 }),
      200,
    );
    await waitFor('the news from the other process', () => timingNews(socket).length === 1, 5000, 10);
    expect(timingNews(socket)).toEqual([{ type: 'timing', eventId: e.eventId }]);
    socket.ws.close();
  });
});

describe('a live socket, for no longer than what opened it', () => {
  const clock = manualClock(Date.now());
  let t: TestApp;
  let e: Evening;

  beforeAll(async () => {
    t = await createTestApp({ liveClock: clock });
    e = await evening(t, { quick: true });
  });
  afterAll(() => t.close());

  /** Where the database announces the change, nothing more is needed; elsewhere the minute's sweep runs. */
  const sweepUnlessAnnounced = () => {
    if (!announces(t.db)) clock.advance(clock.now().getTime() + LIVE_RECHECK_MS);
  };
  /** The socket is open and answering (a call it cannot join is refused to it). */
  const answers = async (socket: Socket) => {
    send(socket, { type: 'call-join', bookingId: 2 ** 31 - 1 });
    await heard(socket, (m) => m.type === 'call-refused');
    socket.messages.length = 0;
    return socket.ws.readyState === WebSocket.OPEN;
  };

  it('closes the socket of a session signed out, and not the same person’s other sessions', async () => {
    const phone = await sessionFor(t, e.parent.id);
    const desktop = await sessionFor(t, e.parent.id);
    const signedOut = await ready(t.app, { type: 'hello', token: phone });
    const stays = await ready(t.app, { type: 'hello', token: desktop });
    expectStatus(await e.http.post('user/logout', phone, {}), 200);
    sweepUnlessAnnounced();
    expect(await signedOut.closed).toBe(LIVE_CLOSE.unauthorized);
    expect(await answers(stays)).toBe(true);
    // The person disabled: every session ends, and every socket with it.
    await t.db.updateTable('users').set({ status: 0 }).where('id', '=', e.parent.id).execute();
    sweepUnlessAnnounced();
    expect(await stays.closed).toBe(LIVE_CLOSE.unauthorized);
  });

  it('closes a socket opened by a personal link once the link is revoked', async () => {
    const links = await issueEventLinksWithoutPassword(t.db, {
      schoolId: e.schoolId,
      eventId: e.eventId,
      userIds: [e.otherParent.id],
    });
    const linked = await ready(t.app, { type: 'hello', link: links.get(e.otherParent.id) });
    expect(await answers(linked)).toBe(true);
    expect(await revokeEventLinks(t.db, e.schoolId, e.otherParent.id)).toBe(1);
    sweepUnlessAnnounced();
    expect(await linked.closed).toBe(LIVE_CLOSE.unauthorized);
  });

  it('asks a socket to reconnect when its person’s roles change, and takes it back', async () => {
    const teacher = e.teachers[0] as Member;
    const socket = await ready(t.app, { type: 'hello', token: teacher.token });
    await t.db
      .insertInto('user_roles')
      .values({ user_id: teacher.id, school_id: e.schoolId, role: 'parent' })
      .execute();
    sweepUnlessAnnounced();
    expect(await socket.closed).toBe(LIVE_CLOSE.reconnect);
    const again = await ready(t.app, { type: 'hello', token: teacher.token });
    expect(await answers(again)).toBe(true);
    again.ws.close();
  });

  it('looks at every socket again each minute, until the hub closes', async () => {
    const sweeps = manualClock();
    const hub = new LiveHub({} as Db, console, sweeps);
    let looked = 0;
    const socket = { OPEN: 1, readyState: 1, close: () => {} } as unknown as import('ws').WebSocket;
    hub.join(1, socket, async () => {
      looked += 1;
    });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    sweeps.advance(LIVE_RECHECK_MS - 1);
    expect(looked).toBe(0);
    sweeps.advance(LIVE_RECHECK_MS);
    await settle();
    expect(looked).toBe(1);
    sweeps.advance(2 * LIVE_RECHECK_MS);
    await settle();
    expect(looked).toBe(2);
    hub.close();
    sweeps.advance(10 * LIVE_RECHECK_MS);
    await settle();
    expect(looked).toBe(2);
  });
});
