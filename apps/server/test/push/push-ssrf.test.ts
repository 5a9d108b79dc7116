import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueuePush, MAX_SUBSCRIPTIONS_PER_USER, upsertSubscription } from '../../src/push/push.repository';
import { type PushGuard, pushGuard } from '../../src/push/push-guard';
import { sendDuePush } from '../../src/push/push-worker';
import { vapidKeysOnce } from '../../src/push/vapid';
import { type Evening, evening } from '../booking/booking-helpers';
import type { Member } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { type Browser, LOCAL_PUSH, type PushService, pushService } from './push-endpoint';

// Issue 35: a subscription's endpoint is user data, and the server POSTs to it. Only a browser's push
// service over https, never an address of this machine or its network (checked on the addresses the
// connection uses), no redirect followed, five subscriptions a user, and an endpoint bound to one user.
// Every listener here is on 127.0.0.1 and must record nothing unless a case says otherwise; the app and
// the worker run with the server's own guard (pushGuard(config.pushServiceHosts)) except where a case
// names what it relaxes to reach its listener.

type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };

const post = (e: Evening, who: Member, subscription: Subscription) =>
  e.http.post('user/push-subscription', who.token, subscription);

const fcm = (name: string, browser: Browser): Subscription => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${name}`,
  keys: browser.keys,
});

describe('Push: where the server may send (issue 35)', () => {
  let t: TestApp;
  let service: PushService;
  let second: PushService;
  let a: Evening;
  let b: Evening;
  let keys: ReturnType<typeof vapidKeysOnce>;
  let guard: PushGuard;

  beforeAll(async () => {
    t = await createTestApp();
    service = await pushService();
    second = await pushService();
    a = await evening(t, { quick: true, schoolName: 'Alpha Academy' });
    b = await evening(t, { quick: true, schoolName: 'Beta Academy' });
    keys = vapidKeysOnce(t.db, t.config);
    guard = pushGuard(t.config.pushServiceHosts);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
    await second.close();
  });

  async function subscriptionsOf(userId: number) {
    return t.db
      .selectFrom('push_subscriptions')
      .select(['id', 'endpoint', 'user_id', 'school_id', 'p256dh'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  /**
   * Rows as ones stored before this guard existed would be: straight into the table; then one push queued
   * for the user, so one outbox row for each.
   */
  async function storedWithPush(e: Evening, who: Member, endpoints: string[], browser: Browser) {
    for (const endpoint of endpoints) {
      await upsertSubscription(t.db, {
        schoolId: e.schoolId,
        userId: who.id,
        endpoint,
        ...browser.keys,
        userAgent: null,
      });
    }
    await enqueuePush(t.db, e.schoolId, {
      userIds: [who.id],
      payload: { action: 'refresh_home', title: '', body: '', url: '/home' },
      ttlSeconds: 60,
      urgency: 'normal',
    });
  }

  async function clearSubscriptions() {
    await t.db.deleteFrom('push_subscriptions').execute();
    service.received.length = 0;
    second.received.length = 0;
    service.status = 201;
    service.location = undefined;
  }

  it('refuses at subscribe an endpoint that is no push service’s https URL, naming the field', async () => {
    await clearSubscriptions();
    const browser = service.browser('local');
    const port = new URL(service.origin).port;
    for (const endpoint of [
      browser.endpoint, // http://127.0.0.1:port/push/local: the listener itself
      `https://127.0.0.1:${port}/push/local`,
      `https://localhost:${port}/push/local`,
      'https://[::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/push',
      'https://evil.example/push',
      'https://fcm.googleapis.com.evil.example/fcm/send/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user:password@fcm.googleapis.com/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
    ]) {
      const response = await post(a, a.parent, { endpoint, keys: browser.keys });
      expect(response.statusCode, endpoint).toBe(422);
      const body = response.json() as { message: string; errors: { endpoint?: string[] } };
      expect(body.errors.endpoint?.[0], endpoint).toMatch(/push service|https:\/\//);
      expect(body.message, endpoint).toBe(body.errors.endpoint?.[0]);
    }
    expect(await subscriptionsOf(a.parent.id)).toEqual([]);
    // The push services browsers use are taken.
    expect((await post(a, a.parent, fcm('ok', browser))).statusCode).toBe(200);
    expect(service.received).toEqual([]);
  });

  it('drops unsent, at send time, a stored subscription the guard no longer allows', async () => {
    await clearSubscriptions();
    const port = new URL(service.origin).port;
    const browser = service.browser('stored');
    await storedWithPush(
      a,
      a.parent,
      [
        `${service.origin}/push/stored`,
        `http://localhost:${port}/push/stored-by-name`,
        `https://127.0.0.1:${port}/push/stored-tls`,
      ],
      browser,
    );
    expect(await subscriptionsOf(a.parent.id)).toHaveLength(3);
    expect(await sendDuePush(t.db, { keys, guard })).toBe(0);
    expect(service.received).toEqual([]);
    // Gone, with their queue: nothing is left to try again.
    expect(await subscriptionsOf(a.parent.id)).toEqual([]);
    expect(await t.db.selectFrom('push_outbox').select('id').execute()).toEqual([]);
  });

  it('refuses to connect when the host resolves to a loopback address, or is one (IPv4, IPv6, mapped)', async () => {
    await clearSubscriptions();
    const port = new URL(service.origin).port;
    // The endpoint rule relaxed to reach this listener by name and by address; the address check is the
    // server's own.
    const endpoints = [
      `http://localhost:${port}/push/by-name`,
      `${service.origin}/push/by-address`,
      `http://[::ffff:127.0.0.1]:${port}/push/mapped`,
      `http://[::1]:${port}/push/v6`,
    ];
    const relaxed: PushGuard = {
      endpointProblem: (endpoint) => (endpoints.includes(endpoint) ? undefined : 'not this test’s'),
      addressProblem: guard.addressProblem,
    };
    const browser = service.browser('by-name');
    await storedWithPush(a, a.parent, endpoints, browser);
    expect(await sendDuePush(t.db, { keys, guard: relaxed })).toBe(0);
    expect(service.received).toEqual([]);
    const failures = await t.db
      .selectFrom('push_outbox as o')
      .innerJoin('push_subscriptions as s', 's.id', 'o.subscription_id')
      .select(['s.endpoint', 'o.status', 'o.last_error'])
      .orderBy('o.id')
      .execute();
    expect(failures).toEqual([
      {
        endpoint: endpoints[0],
        status: 'pending',
        last_error: expect.stringMatching(
          /^refused to connect to localhost: (127\.0\.0\.1|::1) is not public \(loopback\)$/,
        ),
      },
      {
        endpoint: endpoints[1],
        status: 'pending',
        last_error: 'refused to connect to 127.0.0.1: 127.0.0.1 is not public (loopback)',
      },
      {
        endpoint: endpoints[2],
        status: 'pending',
        last_error: expect.stringMatching(/is not public \(IPv4-mapped loopback\)$/),
      },
      {
        endpoint: endpoints[3],
        status: 'pending',
        last_error: 'refused to connect to ::1: ::1 is not public (loopback)',
      },
    ]);
  });

  it('connects to the address it checked: one lookup, its answer dialled, a refused one among them refuses all', async () => {
    await clearSubscriptions();
    const port = new URL(service.origin).port;
    const endpoint = `http://push.test:${port}/push/pinned`;
    // push.test resolves nowhere but here: 127.0.0.1 for the first lookup, then 127.0.0.2 (also this
    // machine, where nothing listens). Only 127.0.0.1 is allowed.
    const lookups: string[] = [];
    let answers: LookupAddress[][] = [[{ address: '127.0.0.1', family: 4 }]];
    const pinned: PushGuard = {
      endpointProblem: (url) => (url === endpoint ? undefined : 'not this test’s'),
      addressProblem: (address) => (address === '127.0.0.1' ? undefined : `${address} is not allowed here`),
      resolve: (hostname, _options, callback) => {
        lookups.push(hostname);
        const answer = answers.shift() ?? [{ address: '127.0.0.2', family: 4 }];
        setImmediate(() => callback(null, answer));
      },
    };
    const browser = service.browser('pinned');
    await storedWithPush(a, a.parent, [endpoint], browser);
    expect(await sendDuePush(t.db, { keys, guard: pinned })).toBe(1);
    expect(lookups).toEqual(['push.test']);
    expect(service.received.map((request) => request.path)).toEqual(['/push/pinned']);
    expect(service.received[0]?.headers.host).toBe(`push.test:${port}`);

    // Two addresses, one refused: neither is dialled.
    service.received.length = 0;
    answers = [
      [
        { address: '127.0.0.1', family: 4 },
        { address: '127.0.0.3', family: 4 },
      ],
    ];
    const fresh: PushGuard = { ...pinned };
    await enqueuePush(t.db, a.schoolId, {
      userIds: [a.parent.id],
      payload: { action: 'refresh_home', title: '', body: '', url: '/home' },
      ttlSeconds: 60,
      urgency: 'normal',
    });
    expect(await sendDuePush(t.db, { keys, guard: fresh })).toBe(0);
    expect(service.received).toEqual([]);
    const pending = await t.db
      .selectFrom('push_outbox')
      .select('last_error')
      .where('status', '=', 'pending')
      .execute();
    expect(pending).toEqual([
      { last_error: 'refused to connect to push.test: 127.0.0.3 is not allowed here' },
    ]);
  });

  it('follows no redirect: the second listener records nothing, the push fails and is retried later', async () => {
    await clearSubscriptions();
    // Both listeners are on 127.0.0.1: the seam that lets the worker reach them (LOCAL_PUSH) relaxes
    // the endpoint and address rules, not the sending.
    const browser = service.browser('redirecting');
    await storedWithPush(a, a.parent, [browser.endpoint], browser);
    for (const status of [301, 302, 303, 307, 308]) {
      service.received.length = 0;
      service.status = status;
      service.location = `${second.origin}/push/stolen`;
      await t.db.updateTable('push_outbox').set({ next_attempt_at: new Date() }).execute();
      expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH }), String(status)).toBe(0);
      expect(service.received, String(status)).toHaveLength(1);
      expect(second.received, String(status)).toEqual([]);
      const row = await t.db
        .selectFrom('push_outbox')
        .select(['status', 'last_error'])
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        status: 'pending',
        last_error: `push service answered ${status}: a redirect, not followed`,
      });
    }
  });

  it(`keeps ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions a user: the sixth drops the oldest`, async () => {
    await clearSubscriptions();
    const browser = service.browser('many');
    expect((await post(a, a.otherParent, fcm('other-parent', browser))).statusCode).toBe(200);
    for (const n of [1, 2, 3, 4, 5])
      expect((await post(a, a.parent, fcm(`device-${n}`, browser))).statusCode).toBe(200);
    const endpoints = async () => (await subscriptionsOf(a.parent.id)).map((row) => row.endpoint).sort();
    const device = (n: number) => `https://fcm.googleapis.com/fcm/send/device-${n}`;
    expect(await endpoints()).toEqual([1, 2, 3, 4, 5].map(device));
    // Renewing one it has (new keys) adds none and drops none; the renewed one is the newest now.
    const renewed = service.browser('renewed');
    expect((await post(a, a.parent, fcm('device-1', renewed))).statusCode).toBe(200);
    expect(await endpoints()).toEqual([1, 2, 3, 4, 5].map(device));
    expect((await post(a, a.parent, fcm('device-6', browser))).statusCode).toBe(200);
    expect(await endpoints()).toEqual([1, 3, 4, 5, 6].map(device));
    expect((await post(a, a.parent, fcm('device-7', browser))).statusCode).toBe(200);
    expect(await endpoints()).toEqual([1, 4, 5, 6, 7].map(device));
    // Nobody else's went.
    expect((await subscriptionsOf(a.otherParent.id)).map((row) => row.endpoint)).toEqual([
      'https://fcm.googleapis.com/fcm/send/other-parent',
    ]);

    // Eight at once: still five (the user's row is locked, so each counts the others').
    const teacher = a.teachers[0] as Member;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => post(a, teacher, fcm(`burst-${n}`, browser))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(await subscriptionsOf(teacher.id)).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
  });

  it('binds an endpoint to one user: another user takes it only with that browser’s keys', async () => {
    await clearSubscriptions();
    const browser = service.browser('owned');
    const subscription = fcm('owned', browser);
    expect((await post(a, a.parent, subscription)).statusCode).toBe(200);
    await enqueuePush(t.db, a.schoolId, {
      userIds: [a.parent.id],
      payload: { action: 'booking', title: 'For the parent only', body: '', url: '/home' },
      ttlSeconds: 60,
      urgency: 'high',
    });
    const owner = await subscriptionsOf(a.parent.id);

    // Someone who knows the endpoint, with keys of their own: in the same school, in another, with one
    // of the two keys right.
    const stranger = service.browser('stranger');
    for (const [e, who, keys] of [
      [a, a.otherParent, stranger.keys],
      [b, b.parent, stranger.keys],
      [a, a.teachers[0] as Member, { p256dh: browser.keys.p256dh, auth: stranger.keys.auth }],
      [a, a.otherParent, { p256dh: stranger.keys.p256dh, auth: browser.keys.auth }],
    ] as const) {
      const response = await post(e, who, { endpoint: subscription.endpoint, keys });
      expect(response.statusCode).toBe(409);
      const text = response.body;
      expect(text).toMatch(/belongs to another account/);
      expect(JSON.stringify(response.json().errors)).toContain('endpoint');
      // Whose it is stays unsaid.
      for (const secret of [a.parent.email, a.parent.firstName, a.parent.lastName, 'Alpha Academy']) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(new RegExp(`\\b${a.parent.id}\\b`));
    }
    expect(await subscriptionsOf(a.parent.id)).toEqual(owner);
    expect(await t.db.selectFrom('push_outbox').select('id').execute()).toHaveLength(1);

    // The same browser (its keys), signed in as someone else now: the endpoint moves, and what was queued
    // for the parent does not follow it to the new user.
    expect((await post(b, b.parent, subscription)).statusCode).toBe(200);
    expect(await subscriptionsOf(a.parent.id)).toEqual([]);
    expect((await subscriptionsOf(b.parent.id)).map((row) => [row.endpoint, row.school_id])).toEqual([
      [subscription.endpoint, b.schoolId],
    ]);
    expect(await t.db.selectFrom('push_outbox').select('id').execute()).toEqual([]);
  });
});
