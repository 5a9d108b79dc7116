import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { cookieValue } from './cookies';

// OWASP's device cookie (decision 033): a browser that has signed in to a login before carries a proof of
// it, so others' failures at its address (a school behind one NAT) do not lock it out. The proof is an
// HMAC under a key of its own, derived from DATA_ENCRYPTION_KEY, over the login, the issue time and a
// random nonce. It is no credential: it only decides which counters a sign-in attempt meets.

const PREFIX = 'parley-device-';
const PATH = '/api/user/login';
const MAX_AGE_S = 365 * 24 * 3600;

const keys = new WeakMap<Buffer, Buffer>();
/** A key for this purpose alone: a device cookie's HMAC tells nothing of the key that seals secrets. */
function deviceKey(config: Pick<Config, 'dataEncryptionKey'>): Buffer {
  let key = keys.get(config.dataEncryptionKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', config.dataEncryptionKey, '', 'parley device cookie v1', 32));
    keys.set(config.dataEncryptionKey, key);
  }
  return key;
}

const mac = (key: Buffer, data: string) => createHmac('sha256', key).update(data).digest('base64url');

/**
 * One cookie per login, named by a keyed hash of the email (a shared computer keeps one per person and the
 * name gives no email away), so the second step of a two-factor sign-in can set it without reading it.
 */
const cookieName = (key: Buffer, email: string) => PREFIX + mac(key, `name|${email}`).slice(0, 16);

const signature = (key: Buffer, email: string, issued: string, nonce: string) =>
  mac(key, `device|${email}|${issued}|${nonce}`);

export type DeviceCookies = {
  config: Pick<Config, 'dataEncryptionKey' | 'env'>;
  request: FastifyRequest;
  reply: FastifyReply;
};

/**
 * The device's id (its nonce) when the request carries a valid device cookie for this email — signed by
 * us, for this login, less than a year old — otherwise null: a forged, altered or foreign cookie is ignored.
 */
export function trustedDevice(
  { config, request }: DeviceCookies,
  email: string,
  now = Date.now(),
): string | null {
  const key = deviceKey(config);
  const [issued, nonce, given, ...rest] = (cookieValue(request, cookieName(key, email)) ?? '').split('.');
  if (!issued || !nonce || !given || rest.length > 0) return null;
  const expected = Buffer.from(signature(key, email, issued, nonce));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  const ageS = now / 1000 - Number.parseInt(issued, 36);
  return ageS >= 0 && ageS < MAX_AGE_S ? nonce : null;
}

/** After a whole sign-in succeeded: a fresh device cookie for this login (HttpOnly, sent to login alone). */
export function rememberDevice(
  { config, request, reply }: DeviceCookies,
  email: string,
  now = Date.now(),
): void {
  const key = deviceKey(config);
  const issued = Math.floor(now / 1000).toString(36);
  const nonce = randomBytes(16).toString('base64url');
  const secure = config.env === 'production' || request.protocol === 'https';
  reply.header(
    'set-cookie',
    `${cookieName(key, email)}=${issued}.${nonce}.${signature(key, email, issued, nonce)}; Path=${PATH}; ` +
      `Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
  );
}
