import { createHmac } from 'node:crypto';
import type { CallInfo } from '@parley/domain/live-schemas';
import type { LiveMessage } from '@parley/domain/live-timing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database';
import { forgetOldSignals } from '../../src/modules/live/calls.service';
import { LiveHub } from '../../src/modules/live/live-hub';
import type { Evening } from '../booking/booking-helpers';
import { booked, bookingPage, freeSlots } from '../booking/booking-helpers';
import { expectStatus, type Member, newSchool } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  anotherProcess,
  heard,
  manualClock,
  ready,
  SIGNALS,
  type Socket,
  send,
  startsIn,
  videoEvening,
} from './live-sockets';

// Video appointments (issue 41): who may join a booking's call and when (from 5 minutes before its start
// until its end), the STUN and TURN servers each caller gets, and the signalling the live channel relays
// between the teacher's and the family's browsers, across processes too. Nothing of the media passes.

const TURN_SECRET = 'turn-shared-secret-for-tests';
const MINUTE = 60_000;

describe('a video appointment’s call', () => {
  let t: TestApp;
  let e: Evening;
  let bookingId: number;
  let teacher: Member;
  const sockets: Socket[] = [];
  const join = (token: string, id = bookingId) => e.http.get(`calls/join?bookingId=${id}`, token);

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        STUN_URLS: 'stun:stun.school.example:3478',
        TURN_URLS: 'turn:turn.school.example:3478?transport=udp,turns:turn.school.example:5349',
        TURN_SECRET,
      },
    });
    ({ e, bookingId, teacher } = await videoEvening(t));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.ws.close();
    await t.close();
  });

  it('opens five minutes before the start and not sooner, in the school’s zone', async () => {
    await startsIn(t.db, bookingId, 6 * MINUTE);
    const early = expectStatus<{ message: string }>(await join(e.parent.token), 409);
    expect(early.message).toMatch(/^The call opens at \d\d:\d\d, a few minutes before the appointment\.$/);
    await startsIn(t.db, bookingId, 4 * MINUTE);
    expectStatus(await join(e.parent.token), 200);
  });

  it('is the teacher’s, the family’s and the admin’s, each with STUN and short-lived TURN', async () => {
    await startsIn(t.db, bookingId, -MINUTE);
    const asParent = expectStatus<CallInfo>(await join(e.parent.token), 200);
    expect(asParent).toMatchObject({ bookingId, eventId: e.eventId, role: 'family' });
    expect(asParent.teacherName).toBe(`${teacher.firstName} ${teacher.lastName}`);
    const [stun, turn] = asParent.iceServers;
    expect(stun).toEqual({ urls: ['stun:stun.school.example:3478'] });
    expect(turn?.urls).toEqual([
      'turn:turn.school.example:3478?transport=udp',
      'turns:turn.school.example:5349',
    ]);
    // coturn's REST scheme: "expiry:user", HMAC-SHA1 under the shared secret, lasting an hour past the end.
    const [expiry, user] = (turn?.username ?? '').split(':');
    expect(user).toBe(String(e.parent.id));
    expect(Number(expiry) * 1000).toBe(Math.floor((Date.parse(asParent.endsAt) + 3_600_000) / 1000) * 1000);
    expect(turn?.credential).toBe(
      createHmac('sha1', TURN_SECRET)
        .update(turn?.username ?? '')
        .digest('base64'),
    );
    expect(expectStatus<CallInfo>(await join(teacher.token), 200).role).toBe('teacher');
    expect(expectStatus<CallInfo>(await join(e.children[0]?.token ?? ''), 200).role).toBe('family');
    // An admin joins only when the teacher invites them to help.
    expect(expectStatus(await join(e.admin.token), 404)).toEqual({ message: 'Appointment not found.' });
  });

  it('lets the teacher, and only the teacher, invite an admin of the school to help', async () => {
    await startsIn(t.db, bookingId, -MINUTE);
    const invite = (token: string, adminId: number) =>
      e.http.post('calls/invite', token, { bookingId, adminId });
    const asTeacher = expectStatus<CallInfo>(await join(teacher.token), 200);
    expect(asTeacher.admins.map((admin) => admin.userId)).toContain(e.admin.id);
    expect(expectStatus<CallInfo>(await join(e.parent.token), 200).admins).toEqual([]);
    expectStatus(await invite(e.parent.token, e.admin.id), 403); // teachers only
    expect(expectStatus(await invite(e.teachers[1]?.token ?? '', e.admin.id), 404)).toEqual({
      message: 'Appointment not found.',
    });
    const notAdmin = expectStatus<{ errors: Record<string, string[]> }>(
      await invite(teacher.token, e.parent.id),
      422,
    );
    expect(notAdmin.errors).toEqual({ adminId: ['Choose an admin of the school.'] });
    const elsewhere = await newSchool(t, 'Invite Elsewhere Academy');
    expectStatus(await invite(teacher.token, elsewhere.admin.id), 422);
    expect(expectStatus(await join(e.admin.token), 404)).toEqual({ message: 'Appointment not found.' });

    const invited = expectStatus<{ message: string }>(await invite(teacher.token, e.admin.id), 200);
    expect(invited.message).toMatch(/ is invited to join this call\.$/);
    expectStatus(await invite(teacher.token, e.admin.id), 200); // again: nothing more
    const asAdmin = expectStatus<CallInfo>(await join(e.admin.token), 200);
    expect(asAdmin.role).toBe('admin');
    expect(asAdmin.participants.map((each) => each.userId)).toContain(e.admin.id);
    const rows = await t.db
      .selectFrom('call_invitations')
      .select(['admin_id', 'invited_by'])
      .where('booking_id', '=', bookingId)
      .execute();
    expect(rows).toEqual([{ admin_id: e.admin.id, invited_by: teacher.id }]);
  });

  it('does not exist for anyone else: another family, another teacher, another school, nobody', async () => {
    await startsIn(t.db, bookingId, -MINUTE);
    const missing = { message: 'Appointment not found.' };
    expect(expectStatus(await join(e.otherParent.token), 404)).toEqual(missing);
    expect(expectStatus(await join(e.otherChild.token), 404)).toEqual(missing);
    expect(expectStatus(await join(e.teachers[1]?.token ?? ''), 404)).toEqual(missing);
    const elsewhere = await newSchool(t, 'Elsewhere Academy');
    expect(expectStatus(await join(elsewhere.admin.token), 404)).toEqual(missing);
    expect((await e.http.get(`calls/join?bookingId=${bookingId}`)).statusCode).toBe(401);
    for (const bad of ['0', '-1', 'x', '2147483648', '1.5', '%00']) {
      const answer = expectStatus<{ errors: Record<string, string[]> }>(
        await e.http.get(`calls/join?bookingId=${bad}`, e.parent.token),
        422,
      );
      expect(Object.keys(answer.errors)).toEqual(['bookingId']);
    }
  });

  it('ends at the appointment’s end, and an in-person evening has none', async () => {
    await startsIn(t.db, bookingId, -10 * MINUTE - 1000);
    expect(expectStatus(await join(e.parent.token), 409)).toEqual({ message: 'This appointment has ended.' });
    await startsIn(t.db, bookingId, -MINUTE);
    expectStatus(
      await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { meetingMode: 'inPerson' }),
      200,
    );
    expect(expectStatus(await join(e.parent.token), 409)).toEqual({
      message: 'This appointment is held in person, not by video.',
    });
    expectStatus(
      await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { meetingMode: 'video' }),
      200,
    );
  });

  it('relays the signalling between the two browsers, and to nobody else', async () => {
    await startsIn(t.db, bookingId, -MINUTE);
    const parent = await ready(t.app, { type: 'hello', token: e.parent.token });
    const teacherSocket = await ready(t.app, { type: 'hello', token: teacher.token });
    const stranger = await ready(t.app, { type: 'hello', token: e.otherParent.token });
    sockets.push(parent, teacherSocket, stranger);
    const of = (type: LiveMessage['type']) => (message: LiveMessage) => message.type === type;

    send(teacherSocket, { type: 'call-join', bookingId });
    await heard(teacherSocket, of('call-joined'));
    send(parent, { type: 'call-join', bookingId });
    expect(await heard(parent, of('call-joined'))).toMatchObject({ bookingId });
    // The teacher learns the family is there, and the offer and answer cross.
    expect(await heard(teacherSocket, of('call'))).toEqual({
      type: 'call',
      bookingId,
      from: e.parent.id,
      kind: 'joined',
    });
    const { offer, candidate } = SIGNALS;
    send(parent, { type: 'signal', bookingId, data: offer });
    expect(await heard(teacherSocket, (m) => m.type === 'call' && m.kind === 'signal')).toEqual({
      type: 'call',
      bookingId,
      from: e.parent.id,
      kind: 'signal',
      data: offer,
    });
    send(teacherSocket, { type: 'signal', bookingId, data: candidate });
    expect(await heard(parent, (m) => m.type === 'call' && m.kind === 'signal')).toMatchObject({
      from: teacher.id,
      data: candidate,
    });

    // Another family is refused, and what it sends to the call goes nowhere.
    send(stranger, { type: 'call-join', bookingId });
    expect(await heard(stranger, of('call-refused'))).toEqual({
      type: 'call-refused',
      bookingId,
      message: 'Appointment not found.',
    });
    send(stranger, { type: 'signal', bookingId, data: offer });
    // Malformed signalling is ignored: an SDP of the wrong kind, a field too many.
    send(parent, { type: 'signal', bookingId, data: { description: { type: 'pranswer', sdp: 'x' } } });
    send(parent, { type: 'signal', bookingId, data: { description: offer.description, extra: 1 } });
    // The parent leaves: the teacher hears it, and nothing of the stranger's or the malformed came first.
    send(parent, { type: 'call-leave', bookingId });
    await heard(teacherSocket, (m) => m.type === 'call' && m.kind === 'left');
    const relayed = teacherSocket.messages
      .filter((m) => m.type === 'call')
      .map((m) => (m.type === 'call' ? m.kind : ''));
    expect(relayed).toEqual(['joined', 'signal', 'left']);
    expect(stranger.messages.map((m) => m.type)).toEqual(['ready', 'call-refused']);
    // Nothing of the media: the rows are the call's setup, forgotten once the call is long over.
    const rows = () =>
      t.db.selectFrom('call_signals').select('payload').where('booking_id', '=', bookingId).execute();
    expect(await rows()).toHaveLength(5);
    expect(await forgetOldSignals(t.db, new Date(Date.now() + 2 * 3_600_000 - MINUTE))).toBe(0);
    expect(
      await forgetOldSignals(t.db, new Date(Date.now() + 2 * 3_600_000 + MINUTE)),
    ).toBeGreaterThanOrEqual(5);
    expect(await rows()).toHaveLength(0);
  });

  it('names who is in it, and tells the teacher who is next and when that family is waiting', async () => {
    await startsIn(t.db, bookingId, -MINUTE);
    const page = await bookingPage(e, e.otherParent.token, e.code);
    const next = (
      await booked(e, e.otherParent.token, [
        {
          slotId: freeSlots(page.grid, teacher.id)[0] ?? 0,
          studentId: e.otherChild.id,
          subjectId: e.subjects[0] ?? 0,
        },
      ])
    ).created[0] as number;
    await startsIn(t.db, next, 4 * MINUTE);
    const asTeacher = expectStatus<CallInfo>(await join(teacher.token), 200);
    expect(asTeacher.userId).toBe(teacher.id);
    // The family and the teacher, and the admin the teacher invited to help (the test before).
    expect(asTeacher.participants.map((each) => each.userId).sort()).toEqual(
      [teacher.id, e.parent.id, e.children[0]?.id, e.admin.id].sort(),
    );
    const familyName = `${e.otherParent.firstName} ${e.otherParent.lastName}`;
    expect(asTeacher.next).toMatchObject({ bookingId: next, familyName, waiting: false });
    expect(expectStatus<CallInfo>(await join(e.parent.token), 200).next).toBeNull();
    const asNextFamily = async () => expectStatus<CallInfo>(await join(e.otherParent.token, next), 200);
    expect((await asNextFamily()).teacherBusyUntil).toBeNull();

    // The next family opens its call: the teacher's page hears it, and the line says it is waiting.
    const teacherSocket = await ready(t.app, { type: 'hello', token: teacher.token });
    const family = await ready(t.app, { type: 'hello', token: e.otherParent.token });
    sockets.push(teacherSocket, family);
    // The teacher in the appointment before: the next family is told until when (the calls' own timing).
    send(teacherSocket, { type: 'call-join', bookingId });
    await heard(teacherSocket, (m) => m.type === 'call-joined');
    expect((await asNextFamily()).teacherBusyUntil).toBe(asTeacher.endTime);
    send(teacherSocket, { type: 'call-leave', bookingId });
    await expect.poll(async () => (await asNextFamily()).teacherBusyUntil).toBeNull();
    send(family, { type: 'call-join', bookingId: next });
    expect(await heard(teacherSocket, (m) => m.type === 'call-presence')).toEqual({
      type: 'call-presence',
      bookingId: next,
    });
    expect(expectStatus<CallInfo>(await join(teacher.token), 200).next).toMatchObject({ waiting: true });
    teacherSocket.messages.length = 0;
    send(family, { type: 'call-leave', bookingId: next });
    await heard(teacherSocket, (m) => m.type === 'call-presence');
    expect(expectStatus<CallInfo>(await join(teacher.token), 200).next).toMatchObject({ waiting: false });
  });
});

describe('the end of a call, on the hub’s clock', () => {
  it('warns a minute before and ends the call at the appointment’s end', () => {
    const clock = manualClock();
    const hub = new LiveHub({} as Db, console, clock);
    const sent: string[] = [];
    const socket = {
      OPEN: 1,
      readyState: 1,
      send: (text: string) => sent.push(text),
    } as unknown as import('ws').WebSocket;
    hub.enterCall(7, 1, socket, new Date(10 * MINUTE));
    clock.advance(9 * MINUTE - 1);
    expect(sent).toEqual([]);
    clock.advance(9 * MINUTE);
    expect(sent.map((text) => JSON.parse(text))).toEqual([
      { type: 'call-ending', bookingId: 7, seconds: 60 },
    ]);
    clock.advance(10 * MINUTE);
    expect(JSON.parse(sent[1] ?? '')).toEqual({ type: 'call-ended', bookingId: 7 });
    expect(hub.inCall(7, socket)).toBe(false);
  });
});

describe.runIf(process.env.TEST_DB === 'pg')(
  'a call whose two sides are on different server processes',
  () => {
    let t: TestApp;
    let elsewhere: Awaited<ReturnType<typeof anotherProcess>>;

    beforeAll(async () => {
      t = await createTestApp();
      elsewhere = await anotherProcess(t);
    });
    afterAll(async () => {
      await elsewhere?.close();
      await t.close();
    });

    it('relays the family’s offer to the teacher and the answer back', async () => {
      const { e, bookingId, teacher } = await videoEvening(t);
      await startsIn(t.db, bookingId, -MINUTE);
      if (!elsewhere) throw new Error('no second process');
      const parent = await ready(t.app, { type: 'hello', token: e.parent.token });
      const teacherSocket = await ready(elsewhere.app, { type: 'hello', token: teacher.token });
      send(teacherSocket, { type: 'call-join', bookingId });
      await heard(teacherSocket, (m) => m.type === 'call-joined');
      send(parent, { type: 'call-join', bookingId });
      await heard(parent, (m) => m.type === 'call-joined');
      await heard(teacherSocket, (m) => m.type === 'call' && m.kind === 'joined');
      const offer = { description: { type: 'offer', sdp: 'v=0\r\n' } };
      send(parent, { type: 'signal', bookingId, data: offer });
      expect(await heard(teacherSocket, (m) => m.type === 'call' && m.kind === 'signal')).toMatchObject({
        data: offer,
      });
      const answer = { description: { type: 'answer', sdp: 'v=0\r\n' } };
      send(teacherSocket, { type: 'signal', bookingId, data: answer });
      expect(await heard(parent, (m) => m.type === 'call' && m.kind === 'signal')).toMatchObject({
        data: answer,
      });
      parent.ws.close();
      teacherSocket.ws.close();
    });
  },
);
