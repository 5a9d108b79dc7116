import { bookingPath } from '@parley/domain/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsSender } from '../../src/push/apns-sender';
import { fcmSender, type NativePush } from '../../src/push/fcm-sender';
import { type NativeSenders, sendDuePush, startPushWorker } from '../../src/push/push-worker';
import { vapidKeysOnce } from '../../src/push/vapid';
import { booked, bookingPage, type Evening, evening, freeSlots } from '../booking/booking-helpers';
import { expectStatus } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import {
  type ApnsStandIn,
  apnsStandIn,
  type FcmStandIn,
  fcmStandIn,
  readJwt,
  selfSignedCertificate,
} from './native-stand-ins';
import { LOCAL_PUSH } from './push-endpoint';

// Native push (issue 40): the FCM and APNs senders against local stand-ins of both services (TLS with a
// certificate made here), each request checked field by field; then through the outbox from a booking to
// the phones, a token the service calls gone removed, a 5xx tried again, and a restart between the
// booking and the delivery delivered once by two workers.

const certificate = selfSignedCertificate();
const signal = new AbortController().signal;
const ANDROID_TOKEN = `cX9-android:APA91b${'F'.repeat(120)}`;
const IPHONE_TOKEN = 'a1'.repeat(32);
const APNS = { keyId: 'ABC123DEFG', teamId: 'TEAM123456', topic: 'app.parley.mobile' };

const push = (action: NativePush['payload']['action'] = 'booking'): NativePush => ({
  payload: {
    action,
    title: action === 'refresh_home' ? '' : 'Year 9 consultations: booking confirmed',
    body: action === 'refresh_home' ? '' : '1 appointment booked; first at 16:00',
    url: action === 'refresh_home' ? '/home' : '/book/ptevent/AB12CD34',
  },
  ttlSeconds: 86_400,
  urgency: action === 'refresh_home' ? 'normal' : 'high',
});

describe('the FCM sender (HTTP v1, a service account)', () => {
  let fcm: FcmStandIn;
  beforeAll(async () => {
    fcm = await fcmStandIn(certificate);
  });
  afterAll(() => fcm.close());

  it('asks for an access token with a signed assertion, once, and sends each message with it', async () => {
    const now = Date.UTC(2027, 2, 27, 18);
    const send = fcmSender(fcm.account, { apiUrl: fcm.url, ca: certificate.cert, now: () => now });
    expect(await send(ANDROID_TOKEN, push(), signal)).toBe('sent');
    expect(await send(ANDROID_TOKEN, push('refresh_home'), signal)).toBe('sent');

    expect(fcm.tokens).toHaveLength(1);
    expect(fcm.tokens[0]?.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const assertion = readJwt(fcm.tokens[0]?.assertion ?? '', fcm.publicKey);
    expect(assertion.header).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(assertion.claims).toEqual({
      iss: fcm.account.client_email,
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
      aud: fcm.account.token_uri,
      iat: now / 1000,
      exp: now / 1000 + 3600,
    });

    const [alert, silent] = fcm.messages;
    expect(alert?.path).toBe('/v1/projects/parley-test/messages:send');
    expect(alert?.headers.authorization).toBe('Bearer ya29.stand-in-1');
    expect(alert?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(alert?.body).toEqual({
      message: {
        token: ANDROID_TOKEN,
        data: {
          action: 'booking',
          title: 'Year 9 consultations: booking confirmed',
          body: '1 appointment booked; first at 16:00',
          url: '/book/ptevent/AB12CD34',
        },
        android: {
          priority: 'high',
          ttl: '86400s',
          notification: {
            title: 'Year 9 consultations: booking confirmed',
            body: '1 appointment booked; first at 16:00',
          },
        },
      },
    });
    // A home refresh shows nothing: data only, at normal priority.
    expect(silent?.headers.authorization).toBe('Bearer ya29.stand-in-1');
    expect(silent?.body).toEqual({
      message: {
        token: ANDROID_TOKEN,
        data: { action: 'refresh_home', title: '', body: '', url: '/home' },
        android: { priority: 'normal', ttl: '86400s' },
      },
    });
  });

  it('calls a token gone on 404 UNREGISTERED or an invalid token, throws on 5xx, renews an access token on 401', async () => {
    let now = Date.UTC(2027, 2, 27, 18);
    const send = fcmSender(fcm.account, { apiUrl: fcm.url, ca: certificate.cert, now: () => now });
    const fcmError = (status: number, code: string, message: string) => ({
      status,
      body: {
        error: {
          code: status,
          message,
          status: code,
          details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: code }],
        },
      },
    });
    fcm.answers.push(
      fcmError(404, 'UNREGISTERED', 'Requested entity was not found.'),
      fcmError(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token'),
      fcmError(503, 'UNAVAILABLE', 'The service is currently unavailable.'),
      { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED', message: 'expired' } } },
    );
    expect(await send(ANDROID_TOKEN, push(), signal)).toBe('gone');
    expect(await send(ANDROID_TOKEN, push(), signal)).toBe('gone');
    await expect(send(ANDROID_TOKEN, push(), signal)).rejects.toThrow(/FCM answered 503 UNAVAILABLE/);
    const asked = fcm.tokens.length;
    expect(await send(ANDROID_TOKEN, push(), signal)).toBe('sent');
    expect(fcm.tokens).toHaveLength(asked + 1);
    // An hour on, the token has expired: a new one.
    now += 3600_000;
    expect(await send(ANDROID_TOKEN, push(), signal)).toBe('sent');
    expect(fcm.tokens).toHaveLength(asked + 2);
  });
});

describe('the APNs sender (HTTP/2, a provider token)', () => {
  let apns: ApnsStandIn;
  beforeAll(async () => {
    apns = await apnsStandIn(certificate);
  });
  afterAll(() => apns.close());

  it('sends an alert and a silent refresh over one connection, with the topic and a signed provider token', async () => {
    let now = Date.UTC(2027, 2, 27, 18);
    const send = apnsSender(
      { key: apns.key, ...APNS },
      { origin: apns.origin, ca: certificate.cert, now: () => now },
    );
    expect(await send(IPHONE_TOKEN, push(), signal)).toBe('sent');
    expect(await send(IPHONE_TOKEN, push('refresh_home'), signal)).toBe('sent');
    const [alert, silent] = apns.requests;
    expect(alert?.path).toBe(`/3/device/${IPHONE_TOKEN}`);
    expect(alert?.headers[':method']).toBe('POST');
    expect(alert?.headers['apns-topic']).toBe('app.parley.mobile');
    expect(alert?.headers['apns-push-type']).toBe('alert');
    expect(alert?.headers['apns-priority']).toBe('10');
    expect(alert?.headers['apns-expiration']).toBe(String(now / 1000 + 86_400));
    const bearer = String(alert?.headers.authorization).replace(/^bearer /, '');
    expect(readJwt(bearer, apns.publicKey)).toEqual({
      header: { alg: 'ES256', typ: 'JWT', kid: 'ABC123DEFG' },
      claims: { iss: 'TEAM123456', iat: now / 1000 },
    });
    expect(alert?.body).toEqual({
      aps: {
        alert: {
          title: 'Year 9 consultations: booking confirmed',
          body: '1 appointment booked; first at 16:00',
        },
        sound: 'default',
      },
      action: 'booking',
      url: '/book/ptevent/AB12CD34',
    });
    expect(silent?.headers['apns-push-type']).toBe('background');
    expect(silent?.headers['apns-priority']).toBe('5');
    expect(silent?.body).toEqual({ aps: { 'content-available': 1 }, action: 'refresh_home', url: '/home' });
    // The same provider token until it is 40 minutes old, then a new one.
    expect(silent?.headers.authorization).toBe(alert?.headers.authorization);
    now += 41 * 60_000;
    await send(IPHONE_TOKEN, push(), signal);
    expect(apns.requests[2]?.headers.authorization).not.toBe(alert?.headers.authorization);
    expect(apns.connections).toBe(1);
  });

  it('calls a token gone on 410 or BadDeviceToken, throws on 5xx, renews an expired provider token', async () => {
    const send = apnsSender({ key: apns.key, ...APNS }, { origin: apns.origin, ca: certificate.cert });
    apns.answers.push(
      { status: 410, body: { reason: 'Unregistered', timestamp: 1 } },
      { status: 400, body: { reason: 'BadDeviceToken' } },
      { status: 500, body: { reason: 'InternalServerError' } },
      { status: 403, body: { reason: 'ExpiredProviderToken' } },
    );
    expect(await send(IPHONE_TOKEN, push(), signal)).toBe('gone');
    expect(await send(IPHONE_TOKEN, push(), signal)).toBe('gone');
    await expect(send(IPHONE_TOKEN, push(), signal)).rejects.toThrow(/APNs answered 500 InternalServerError/);
    const before = apns.requests.length;
    expect(await send(IPHONE_TOKEN, push(), signal)).toBe('sent');
    expect(apns.requests).toHaveLength(before + 2);
    // A token that is not hex never reaches the path.
    expect(await send('../../evil', push(), signal)).toBe('gone');
    expect(apns.requests).toHaveLength(before + 2);
  });
});

/** Books a slot of the teacher for the parent's first child, each teacher at another time. */
async function bookOne(e: Evening, teacherIndex = 0) {
  const page = await bookingPage(e, e.parent.token, e.code);
  return booked(e, e.parent.token, [
    {
      slotId: freeSlots(page.grid, e.teachers[teacherIndex]?.id ?? 0)[teacherIndex * 2] ?? 0,
      studentId: e.children[0]?.id ?? 0,
      subjectId: e.subjects[teacherIndex] ?? 0,
    },
  ]);
}

const register = (e: Evening, token: string, body: Record<string, unknown>) =>
  e.http.post('users/register-token', token, body);

describe('native push through the outbox', () => {
  let t: TestApp;
  let e: Evening;
  let fcm: FcmStandIn;
  let apns: ApnsStandIn;
  let native: NativeSenders;
  let keys: ReturnType<typeof vapidKeysOnce>;
  const channels = () => ({ keys, guard: LOCAL_PUSH, native });

  beforeAll(async () => {
    t = await createTestApp({ pushGuard: LOCAL_PUSH });
    e = await evening(t, { quick: true });
    keys = vapidKeysOnce(t.db, t.config);
    fcm = await fcmStandIn(certificate);
    apns = await apnsStandIn(certificate);
    native = {
      fcm: fcmSender(fcm.account, { apiUrl: fcm.url, ca: certificate.cert }),
      apns: apnsSender({ key: apns.key, ...APNS }, { origin: apns.origin, ca: certificate.cert }),
    };
  });
  afterAll(async () => {
    await t.close();
    await fcm.close();
    await apns.close();
  });

  it('registers a phone by its platform, and refuses what is no token of it', async () => {
    expectStatus(await register(e, e.parent.token, { deviceToken: ANDROID_TOKEN, platform: 'android' }), 200);
    // Without a platform, 64 hex digits are an iPhone's.
    expectStatus(await register(e, e.teachers[0]?.token ?? '', { deviceToken: IPHONE_TOKEN }), 200);
    const problem = expectStatus<{ errors: Record<string, string[]> }>(
      await register(e, e.otherParent.token, { deviceToken: 'not a token', platform: 'ios' }),
      422,
    );
    expect(problem.errors.deviceToken).toEqual(['Must be the push token the phone gave the app']);
    const rows = await t.db
      .selectFrom('push_subscriptions')
      .select(['user_id', 'channel', 'endpoint', 'p256dh'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { user_id: e.parent.id, channel: 'fcm', endpoint: ANDROID_TOKEN, p256dh: null },
      { user_id: e.teachers[0]?.id, channel: 'apns', endpoint: IPHONE_TOKEN, p256dh: null },
    ]);
  });

  it('delivers a booking to both phones, once; a 5xx is tried again; a gone token ends its subscription', async () => {
    await bookOne(e);
    apns.answers.push({ status: 503, body: { reason: 'ServiceUnavailable' } });
    expect(await sendDuePush(t.db, channels())).toBe(1);
    expect(fcm.messages.map((m) => (m.body as { message: { data: unknown } }).message.data)).toEqual([
      {
        action: 'booking',
        title: 'Year 9 consultations: booking confirmed',
        body: expect.stringMatching(/^1 appointment booked; first at \d\d:\d\d$/),
        url: bookingPath(1, e.code),
      },
    ]);
    // The teacher's phone (a home refresh: no notice asked for) failed once; it stays queued, with backoff.
    const waiting = await t.db
      .selectFrom('push_outbox')
      .select(['status', 'attempts', 'last_error'])
      .where('status', '=', 'pending')
      .execute();
    expect(waiting).toEqual([
      { status: 'pending', attempts: 1, last_error: expect.stringMatching(/APNs answered 503/) },
    ]);
    expect(await sendDuePush(t.db, channels())).toBe(0);
    // The backoff passed (as by the clock): delivered, once.
    await t.db
      .updateTable('push_outbox')
      .set({ next_attempt_at: new Date(0) })
      .execute();
    expect(await sendDuePush(t.db, channels())).toBe(1);
    expect(apns.requests.map((r) => (r.body as { action: string }).action)).toEqual([
      'refresh_home',
      'refresh_home',
    ]);
    expect(await sendDuePush(t.db, channels())).toBe(0);

    // The app was uninstalled from the parent's phone: FCM says so and the subscription goes.
    fcm.answers.push({
      status: 404,
      body: { error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } },
    });
    await bookOne(e, 1);
    await sendDuePush(t.db, channels());
    const left = await t.db.selectFrom('push_subscriptions').select('channel').execute();
    expect(left).toEqual([{ channel: 'apns' }]);
  });

  it('keeps a push for a channel with no sender configured (sent once one is)', async () => {
    await t.db.deleteFrom('push_outbox').execute();
    expectStatus(await register(e, e.parent.token, { deviceToken: ANDROID_TOKEN, platform: 'android' }), 200);
    await bookOne(e, 2);
    const sent = fcm.messages.length;
    // The parent's phone is the only one this booking reaches (teacher 2 has none).
    expect(await sendDuePush(t.db, { keys, guard: LOCAL_PUSH, native: { apns: native.apns } })).toBe(0);
    const queued = await t.db
      .selectFrom('push_outbox as o')
      .innerJoin('push_subscriptions as s', 's.id', 'o.subscription_id')
      .select(['s.channel', 'o.status', 'o.last_error'])
      .where('o.status', '=', 'pending')
      .execute();
    expect(queued).toEqual([
      { channel: 'fcm', status: 'pending', last_error: 'no sender is configured for fcm pushes' },
    ]);
    await t.db
      .updateTable('push_outbox')
      .set({ next_attempt_at: new Date(0) })
      .execute();
    expect(await sendDuePush(t.db, channels())).toBe(1);
    expect(fcm.messages).toHaveLength(sent + 1);
  });
});

describe('native push across a server restart', () => {
  it('a push committed before the server stopped is delivered once by two workers after it', async () => {
    const t = await createTestApp({ pushGuard: LOCAL_PUSH });
    const fcm = await fcmStandIn(certificate);
    const apns = await apnsStandIn(certificate);
    try {
      const e = await evening(t, { quick: true });
      expectStatus(
        await register(e, e.parent.token, { deviceToken: ANDROID_TOKEN, platform: 'android' }),
        200,
      );
      expectStatus(
        await register(e, e.teachers[0]?.token ?? '', { deviceToken: IPHONE_TOKEN, platform: 'ios' }),
        200,
      );
      await bookOne(e);
      await t.app.close();
      const keys = vapidKeysOnce(t.db, t.config);
      const errors: unknown[] = [];
      const workers = [1, 2].map(() =>
        startPushWorker({
          db: t.db,
          channels: {
            keys,
            guard: LOCAL_PUSH,
            native: {
              fcm: fcmSender(fcm.account, { apiUrl: fcm.url, ca: certificate.cert }),
              apns: apnsSender({ key: apns.key, ...APNS }, { origin: apns.origin, ca: certificate.cert }),
            },
          },
          reminders: { product: t.config.appName, appUrl: t.config.appUrl },
          intervalMs: 20,
          onError: (error) => errors.push(error),
        }),
      );
      const delivered = async () => {
        const left = await t.db
          .selectFrom('push_outbox')
          .select('id')
          .where('status', '=', 'pending')
          .execute();
        return left.length;
      };
      await expect.poll(delivered, { timeout: 30_000, interval: 20 }).toBe(0);
      await Promise.all(workers.map((worker) => worker.stop()));
      expect(errors).toEqual([]);
      expect(fcm.messages).toHaveLength(1);
      expect(apns.requests).toHaveLength(1);
    } finally {
      await t.close();
      await fcm.close();
      await apns.close();
    }
  });
});
