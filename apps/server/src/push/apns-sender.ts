import type { KeyObject } from 'node:crypto';
import http2 from 'node:http2';
import type { NativePush, NativeSender } from './fcm-sender';
import { privateKeyOf, signedToken } from './signed-token';

// The Apple Push Notification service (decision 038): the iOS app's pushes, over one HTTP/2 connection
// (node:http2) with a provider token (ES256 JWT) signed by the team's .p8 key, renewed well within the
// hour Apple allows (and at once if Apple calls it expired).

export type ApnsKey = {
  /** The .p8 key's PEM text (Apple Developer → Keys, with Apple Push Notifications enabled). */
  key: string;
  keyId: string;
  teamId: string;
  /** The app's bundle id (apns-topic). */
  topic: string;
};

/** A provider token is made again after this long (Apple refuses one older than an hour). */
const TOKEN_AGE_MS = 40 * 60_000;
/** Apple's answers that mean the device token is no longer (or never was) this app's. */
const GONE_REASONS = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered']);

/** The body and headers Apple takes for a push: an alert, or for a home refresh a silent background push. */
export function apnsRequest(push: NativePush, topic: string, nowMs: number) {
  const { action, title, body, url } = push.payload;
  const silent = action === 'refresh_home';
  return {
    headers: {
      'apns-topic': topic,
      'apns-push-type': silent ? 'background' : 'alert',
      // Apple takes only 5 for a background push.
      'apns-priority': silent || push.urgency !== 'high' ? '5' : '10',
      'apns-expiration': String(Math.floor(nowMs / 1000) + push.ttlSeconds),
    },
    body: {
      aps: silent ? { 'content-available': 1 } : { alert: { title, body }, sound: 'default' },
      action,
      url,
    },
  };
}

type Answer = { status: number; reason: string };

/** A sender for one key, against `origin` (https://api.push.apple.com, or the sandbox's). */
export function apnsSender(
  apns: ApnsKey,
  options: { origin: string; ca?: string | Buffer; now?: () => number },
): NativeSender {
  const key: KeyObject = privateKeyOf(apns.key, 'APNS_KEY');
  const now = options.now ?? Date.now;
  let provider: { token: string; at: number } | null = null;
  let session: http2.ClientHttp2Session | null = null;

  const providerToken = () => {
    if (!provider || now() - provider.at >= TOKEN_AGE_MS) {
      const at = now();
      provider = {
        token: signedToken(
          'ES256',
          key,
          { kid: apns.keyId },
          { iss: apns.teamId, iat: Math.floor(at / 1000) },
        ),
        at,
      };
    }
    return provider.token;
  };

  /** The one connection, opened again once it has closed or failed. */
  const connection = () => {
    if (session && !session.closed && !session.destroyed) return session;
    const opened = http2.connect(options.origin, options.ca ? { ca: options.ca } : {});
    // A failed connection fails its requests; the next push opens another.
    opened.on('error', () => opened.destroy());
    opened.on('goaway', () => opened.close());
    // Idle, it does not keep the process alive.
    opened.unref();
    session = opened;
    return opened;
  };

  const request = (token: string, push: NativePush, signal: AbortSignal) =>
    new Promise<Answer>((resolve, reject) => {
      const { headers, body } = apnsRequest(push, apns.topic, now());
      const stream = connection().request(
        {
          ':method': 'POST',
          ':path': `/3/device/${token}`,
          authorization: `bearer ${providerToken()}`,
          'content-type': 'application/json',
          ...headers,
        },
        { signal },
      );
      let status = 0;
      const chunks: Buffer[] = [];
      stream.on('response', (answer) => {
        status = Number(answer[':status'] ?? 0);
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let reason = '';
        try {
          reason = (JSON.parse(text) as { reason?: string }).reason ?? '';
        } catch {
          // an empty body (200) or not Apple's JSON
        }
        resolve({ status, reason });
      });
      stream.end(JSON.stringify(body));
    });

  return async function send(token, push, signal) {
    // A device token is hex (checked when registered): nothing else reaches the path.
    if (!/^[0-9a-f]+$/i.test(token)) return 'gone';
    for (let attempt = 0; ; attempt++) {
      const answer = await request(token, push, signal);
      if (answer.status === 200) return 'sent';
      if (answer.status === 410 || GONE_REASONS.has(answer.reason)) return 'gone';
      if (answer.status === 403 && answer.reason === 'ExpiredProviderToken' && attempt === 0) {
        provider = null;
        continue;
      }
      // 429 TooManyRequests, 500, 503 and the rest: tried again by the outbox, with its backoff.
      throw new Error(`APNs answered ${answer.status} ${answer.reason}`);
    }
  };
}
