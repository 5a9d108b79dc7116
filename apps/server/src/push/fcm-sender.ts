import type { KeyObject } from 'node:crypto';
import https from 'node:https';
import type { PushPayload } from '@parley/domain/push';
import { privateKeyOf, signedToken } from './signed-token';

// Firebase Cloud Messaging, HTTP v1 (decision 038): the Android app's pushes. A service account's key signs
// an OAuth assertion (RFC 7523) for an access token, kept until shortly before it expires; each push is a
// POST of one message to the project. node:https (HTTP/1.1, kept-alive connections) and node:crypto: no
// Google library, as none can be pointed at a stand-in through its public options.

/** What a school's deployer downloads from the Firebase console (Project settings → Service accounts). */
export type FcmServiceAccount = {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri: string;
};

export type NativePush = { payload: PushPayload; ttlSeconds: number; urgency: string };
/** sent; gone: the service no longer knows the token (the subscription goes). Anything else throws. */
export type NativeOutcome = 'sent' | 'gone';
export type NativeSender = (token: string, push: NativePush, signal: AbortSignal) => Promise<NativeOutcome>;

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** An access token is used until this long before it expires (they last an hour). */
const TOKEN_MARGIN_S = 300;

type Answer = { status: number; body: string };

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  agent: https.Agent,
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent, signal },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** FCM's own error code of an answer (google.firebase.fcm.v1.FcmError), else its status word. */
function fcmError(body: string): { code: string; message: string } {
  const error = (json(body) as { error?: { status?: string; message?: string; details?: unknown[] } } | null)
    ?.error;
  const detail = (error?.details ?? []).find(
    (each): each is { errorCode: string } => typeof (each as { errorCode?: unknown }).errorCode === 'string',
  );
  return { code: detail?.errorCode ?? error?.status ?? '', message: error?.message ?? body.slice(0, 200) };
}

/**
 * FCM's message: data for the app (strings only) and, unless it only refreshes home, a notification the
 * phone shows while the app is closed. Kept by FCM as long as the push's TTL.
 */
export function fcmMessage(token: string, push: NativePush) {
  const { action, title, body, url } = push.payload;
  const silent = action === 'refresh_home';
  return {
    message: {
      token,
      data: { action, title, body, url },
      android: {
        priority: silent || push.urgency !== 'high' ? 'normal' : 'high',
        ttl: `${push.ttlSeconds}s`,
        ...(silent ? {} : { notification: { title, body } }),
      },
    },
  };
}

/** A sender for one service account, against `apiUrl` (https://fcm.googleapis.com). */
export function fcmSender(
  account: FcmServiceAccount,
  options: { apiUrl: string; ca?: string | Buffer; now?: () => number },
): NativeSender {
  const key: KeyObject = privateKeyOf(account.private_key, 'The FCM service account private_key');
  const agent = new https.Agent({ keepAlive: true, ...(options.ca && { ca: options.ca }) });
  const now = options.now ?? Date.now;
  const sendUrl = new URL(
    `/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`,
    options.apiUrl,
  );
  let cached: { token: string; until: number } | null = null;
  let asking: Promise<string> | null = null;

  async function ask(signal: AbortSignal): Promise<string> {
    const issued = Math.floor(now() / 1000);
    const assertion = signedToken(
      'RS256',
      key,
      {},
      { iss: account.client_email, scope: SCOPE, aud: account.token_uri, iat: issued, exp: issued + 3600 },
    );
    const answer = await post(
      new URL(account.token_uri),
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
      agent,
      signal,
    );
    const body = json(answer.body) as { access_token?: unknown; expires_in?: unknown } | null;
    if (answer.status !== 200 || typeof body?.access_token !== 'string')
      throw new Error(`FCM token endpoint answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    cached = { token: body.access_token, until: now() + (lifetime - TOKEN_MARGIN_S) * 1000 };
    return body.access_token;
  }

  /** One token for all pushes in flight: a pass of many pushes asks Google once. */
  function accessToken(signal: AbortSignal): Promise<string> {
    if (cached && cached.until > now()) return Promise.resolve(cached.token);
    asking ??= ask(signal).finally(() => {
      asking = null;
    });
    return asking;
  }

  return async function send(token, push, signal) {
    const body = JSON.stringify(fcmMessage(token, push));
    for (let attempt = 0; ; attempt++) {
      const bearer = await accessToken(signal);
      const answer = await post(
        sendUrl,
        { authorization: `Bearer ${bearer}`, 'content-type': 'application/json; charset=utf-8' },
        body,
        agent,
        signal,
      );
      if (answer.status === 200) return 'sent';
      const error = fcmError(answer.body);
      // An access token revoked or expired early: a new one, once.
      if (answer.status === 401 && attempt === 0) {
        cached = null;
        continue;
      }
      // The app was uninstalled or the token renewed (404 UNREGISTERED), or the token is not one of this
      // project's (403 SENDER_ID_MISMATCH) or not a token at all (400 about the registration token).
      if (
        answer.status === 404 ||
        error.code === 'UNREGISTERED' ||
        error.code === 'SENDER_ID_MISMATCH' ||
        (answer.status === 400 && /registration token/i.test(error.message))
      )
        return 'gone';
      // 429 and 5xx (and anything else) are tried again by the outbox, with its backoff.
      throw new Error(`FCM answered ${answer.status} ${error.code}: ${error.message}`);
    }
  };
}
