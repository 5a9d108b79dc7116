import { bookingPath } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDuePush, startPushWorker } from '../../src/push/push-worker';
import { vapidKeysOnce } from '../../src/push/vapid';
import {
  addRecipients,
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
} from '../booking/booking-helpers';
import { addPerson, expectStatus } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { type Browser, LOCAL_PUSH, type PushService, pushService, verifyVapid } from './push-endpoint';

// Web Push end to end without the internet (issue 12): a "browser" (a generated P-256 key pair and auth
// secret) subscribes through the API to a push endpoint this test serves on 127.0.0.1; a booking enqueues
// pushes in its transaction; the app's own worker and outbox deliver them; the endpoint decrypts them.

const subscribe = (e: Evening, token: string, browser: Browser) =>
  e.http.post('user/push-subscription', token, { endpoint: browser.endpoint, keys: browser.keys });

async function subscriptions(t: TestApp) {
  return t.db.selectFrom('push_subscriptions').select(['endpoint', 'user_id', 'school_id']).execute();
}

async function pushKey(t: TestApp): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: '/api/site/push-key' });
  return expectStatus<{ publicKey: string }>(response, 200).publicKey;
}

/** Books a slot of the teacher for the child they teach, each teacher at another time (no overlap). */
async function bookOne(e: Evening, teacherIndex = 0) {
  const teacher = e.teachers[teacherIndex];
  const page = await bookingPage(e, e.parent.token, e.code);
  const slotId = teacher && freeSlots(page.grid, teacher.id)[teacherIndex * 2];
  if (!slotId) throw new Error('no free slot');
  const child = e.children[teacherIndex === 3 ? 1 : 0];
  return booked(e, e.parent.token, [
    { slotId, studentId: child?.id ?? 0, subjectId: e.subjects[teacherIndex] ?? 0 },
  ]);
}

describe('Web Push', () => {
  let t: TestApp;
  let service: PushService;
  let a: Evening;
  let b: Evening;
  let keys: ReturnType<typeof vapidKeysOnce>;
  let parentBrowser: Browser;

  beforeAll(async () => {
    t = await createTestApp({ pushGuard: LOCAL_PUSH });
    service = await pushService();
    a = await evening(t, { quick: true, schoolName: 'Alpha Academy' });
    b = await evening(t, { quick: true, schoolName: 'Beta Academy' });
    keys = vapidKeysOnce(t.db, t.config);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  it('serves one VAPID public key to anyone, generated once and kept with its private half sealed', async () => {
    const key = await pushKey(t);
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    expect(await pushKey(t)).toBe(key);
    const rows = await t.db.selectFrom('app_settings').select(['key', 'value']).orderBy('key').execute();
    expect(rows.map((row) => row.key)).toEqual(['vapid.private_key', 'vapid.public_key']);
    const sealed = rows[0]?.value ?? '';
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain((await keys()).privateKey);
  });

  it('refuses a subscription with a bad key or endpoint, naming the field', async () => {
    const browser = service.browser('bad');
    const short = await a.http.post('user/push-subscription', a.parent.token, {
      endpoint: browser.endpoint,
      keys: { ...browser.keys, p256dh: 'abc' },
    });
    expect(short.statusCode).toBe(422);
    expect(JSON.stringify(short.json())).toContain('keys.p256dh');
    const ftp = await a.http.post('user/push-subscription', a.parent.token, {
      endpoint: 'ftp://127.0.0.1/x',
      keys: browser.keys,
    });
    expect(ftp.statusCode).toBe(422);
    expect(JSON.stringify(ftp.json())).toContain('endpoint');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/user/push-subscription',
      payload: { endpoint: browser.endpoint, keys: browser.keys },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a booking is pushed to the parent (decrypted, VAPID-signed) and refreshes the teacher’s home', async () => {
    parentBrowser = service.browser('parent');
    const teacherBrowser = service.browser('teacher');
    expectStatus(await subscribe(a, a.parent.token, parentBrowser), 200);
    expectStatus(await subscribe(a, a.teachers[0]?.token ?? '', teacherBrowser), 200);
    service.received.length = 0;

    await bookOne(a);
    // Committed with the booking, not sent by the request.
    expect(service.received).toHaveLength(0);
    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(2);
    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(0);
    expect(service.received).toHaveLength(2);

    const publicKey = await pushKey(t);
    const byPath = new Map(service.received.map((request) => [request.path, request]));
    const toParent = byPath.get('/push/parent');
    const toTeacher = byPath.get('/push/teacher');
    if (!toParent || !toTeacher) throw new Error('a push is missing');
    expect(parentBrowser.decrypt(toParent.body)).toEqual({
      action: 'booking',
      title: 'Year 9 consultations: booking confirmed',
      body: expect.stringMatching(/^1 appointment booked; first at \d\d:\d\d$/),
      url: bookingPath(1, a.code),
    });
    expect(teacherBrowser.decrypt(toTeacher.body)).toEqual({
      action: 'refresh_home',
      title: '',
      body: '',
      url: '/home',
    });
    // Another browser's keys cannot read it: the payload really is encrypted to the subscriber.
    expect(() => teacherBrowser.decrypt(toParent.body)).toThrow();
    for (const request of [toParent, toTeacher]) {
      expect(request.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(request.headers.ttl)).toBeGreaterThan(0);
      expect(verifyVapid(request.headers.authorization, service.origin)).toBe(publicKey);
    }
    expect(toParent.headers.urgency).toBe('high');
    const rows = await t.db.selectFrom('push_outbox').select(['status', 'attempts']).execute();
    expect(rows).toEqual([
      { status: 'sent', attempts: 1 },
      { status: 'sent', attempts: 1 },
    ]);
  });

  it('a push the parent turned off in Settings is not sent; home still refreshes', async () => {
    expectStatus(
      await a.http.post('users/update-settings', a.parent.token, { push: { bookings: false } }),
      200,
    );
    const settings = expectStatus<{ groupedSettings: { push: Record<string, boolean> } }>(
      await a.http.get('users/settings', a.parent.token),
      200,
    );
    expect(settings.groupedSettings.push).toMatchObject({ bookings: false, reminders: true });
    service.received.length = 0;
    await bookOne(a, 1);
    await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
    const parent = service.received.filter((request) => request.path === '/push/parent');
    expect(parent).toHaveLength(1);
    expect(parentBrowser.decrypt(parent[0]?.body ?? Buffer.alloc(0))).toMatchObject({
      action: 'refresh_home',
    });
    expectStatus(
      await a.http.post('users/update-settings', a.parent.token, { push: { bookings: true } }),
      200,
    );
  });

  it('a failure is retried with backoff; a 410 from the push service removes the subscription', async () => {
    service.status = 500;
    service.received.length = 0;
    await bookOne(a, 2);
    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH })).toBe(0);
    const failed = await t.db
      .selectFrom('push_outbox')
      .select(['status', 'attempts', 'last_error', 'next_attempt_at'])
      .where('status', '=', 'pending')
      .execute();
    expect(failed.length).toBeGreaterThan(0);
    for (const row of failed) {
      expect(row).toMatchObject({ attempts: 1, last_error: 'push service answered 500' });
      expect(row.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    }
    expect((await subscriptions(t)).map((s) => s.endpoint)).toContain(`${service.origin}/push/parent`);

    service.status = 410;
    await t.db.updateTable('push_outbox').set({ next_attempt_at: new Date() }).execute();
    await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
    const left = (await subscriptions(t)).map((s) => s.endpoint);
    expect(left).not.toContain(`${service.origin}/push/parent`);
    // The teacher's browser got nothing (not this booking's teacher) and stays subscribed.
    expect(left).toContain(`${service.origin}/push/teacher`);
    // Its queued pushes went with it.
    expect(
      await t.db.selectFrom('push_outbox').select('id').where('status', '=', 'pending').execute(),
    ).toEqual([]);
    service.status = 201;
  });

  it('another school cannot remove a subscription; its owner can; a new owner takes the endpoint over', async () => {
    const browser = service.browser('shared');
    expectStatus(await subscribe(a, a.parent.token, browser), 200);
    expectStatus(
      await b.http.post('user/remove-push-subscription', b.parent.token, { endpoint: browser.endpoint }),
      200,
    );
    expect(await subscriptions(t)).toContainEqual({
      endpoint: browser.endpoint,
      user_id: a.parent.id,
      school_id: a.schoolId,
    });
    // Another user of the same school cannot either.
    expectStatus(
      await a.http.post('user/remove-push-subscription', a.otherParent.token, { endpoint: browser.endpoint }),
      200,
    );
    expect((await subscriptions(t)).map((s) => s.endpoint)).toContain(browser.endpoint);
    expectStatus(
      await a.http.post('user/remove-push-subscription', a.parent.token, { endpoint: browser.endpoint }),
      200,
    );
    expect((await subscriptions(t)).map((s) => s.endpoint)).not.toContain(browser.endpoint);

    // The same browser, signed in at school B now: the endpoint is B's parent's, once.
    expectStatus(await subscribe(a, a.parent.token, browser), 200);
    expectStatus(await subscribe(b, b.parent.token, browser), 200);
    const rows = (await subscriptions(t)).filter((s) => s.endpoint === browser.endpoint);
    expect(rows).toEqual([{ endpoint: browser.endpoint, user_id: b.parent.id, school_id: b.schoolId }]);
    // A's booking no longer reaches that browser.
    service.received.length = 0;
    await bookOne(a, 3);
    await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
    expect(service.received.filter((r) => r.path === '/push/shared')).toEqual([]);
  });
});

describe('Web Push: an event opening and the school’s messages', () => {
  it('enabling an event and a reminder reach its recipients, each as their settings say', async () => {
    const t = await createTestApp({ pushGuard: LOCAL_PUSH });
    const service = await pushService();
    try {
      const e = await evening(t, { quick: true });
      const keys = vapidKeysOnce(t.db, t.config);
      const parent = service.browser('parent');
      const other = service.browser('other');
      const outsider = service.browser('outsider');
      expectStatus(await subscribe(e, e.parent.token, parent), 200);
      expectStatus(await subscribe(e, e.otherParent.token, other), 200);
      expectStatus(await subscribe(e, e.teachers[0]?.token ?? '', outsider), 200);
      await addRecipients(e, e.eventId, [e.parent.id, e.otherParent.id]);
      // The other parent wants no reminders.
      expectStatus(
        await e.http.post('users/update-settings', e.otherParent.token, { push: { reminders: false } }),
        200,
      );
      expectStatus(await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { status: 0 }), 200);
      expectStatus(await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { status: 1 }), 200);
      await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
      const opened = { action: 'event_open', title: 'Year 9 consultations', body: 'Booking is open.' };
      const decrypted = (browser: Browser, path: string) =>
        service.received.filter((r) => r.path === path).map((r) => browser.decrypt(r.body));
      expect(decrypted(parent, '/push/parent')).toEqual([{ ...opened, url: bookingPath(1, e.code) }]);
      expect(decrypted(other, '/push/other')).toEqual([{ ...opened, url: bookingPath(1, e.code) }]);
      // Not a recipient: nothing.
      expect(service.received.filter((r) => r.path === '/push/outsider')).toEqual([]);

      service.received.length = 0;
      expectStatus(
        await e.http.post(`message-types/send?eventId=${e.eventId}`, e.admin.token, {
          messageTypeName: 'reminder',
          audience: 'all',
        }),
        200,
      );
      await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
      expect(decrypted(parent, '/push/parent')).toMatchObject([{ action: 'reminder' }]);
      expect(decrypted(other, '/push/other')).toMatchObject([{ action: 'refresh_home' }]);

      // The parent, invited to teach too: told by push, without the link (a credential; it stays in the mail).
      service.received.length = 0;
      await addPerson(t, e.admin.token, 'teacher', { email: e.parent.email, sendInvite: true });
      await sendDuePush(t.db, { keys, guard: LOCAL_PUSH });
      expect(decrypted(parent, '/push/parent')).toEqual([
        {
          action: 'invitation',
          title: 'Booking Academy: an invitation',
          body: 'You are invited as teacher. Open the invitation mail to accept.',
          url: '/home',
        },
      ]);
    } finally {
      await t.close();
      await service.close();
    }
  });
});

describe('Web Push across a server restart', () => {
  it('a push committed before the server stopped is delivered once by the workers after it', async () => {
    const t = await createTestApp({ pushGuard: LOCAL_PUSH });
    const service = await pushService();
    try {
      const e = await evening(t, { quick: true });
      const browser = service.browser('restart');
      expectStatus(await subscribe(e, e.parent.token, browser), 200);
      await bookOne(e);
      // The server that took the booking goes before any worker ran.
      await t.app.close();
      expect(service.received).toHaveLength(0);
      // Two new processes' workers (the real polling worker) over the same database and outbox.
      const keys = vapidKeysOnce(t.db, t.config);
      const errors: unknown[] = [];
      const workers = [1, 2].map(() =>
        startPushWorker({
          db: t.db,
          channels: { keys, guard: LOCAL_PUSH },
          reminders: { product: t.config.appName, appUrl: t.config.appUrl },
          intervalMs: 20,
          onError: (error) => errors.push(error),
        }),
      );
      const deadline = Date.now() + 30_000;
      while (service.received.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      await Promise.all(workers.map((worker) => worker.stop()));
      expect(errors).toEqual([]);
      expect(service.received.map((request) => request.path)).toEqual(['/push/restart']);
      expect(browser.decrypt(service.received[0]?.body ?? Buffer.alloc(0))).toMatchObject({
        action: 'booking',
        url: bookingPath(1, e.code),
      });
    } finally {
      await t.close();
      await service.close();
    }
  }, 60_000);
});
