import { createHmac } from 'node:crypto';
import type { IceServer } from '@parley/domain/live-schemas';
import type { Config } from '../../config';

// STUN and TURN for one call (decision 040). TURN credentials follow coturn's REST API scheme
// (use-auth-secret): the user name is "expiry:userId", the password its HMAC-SHA1 under the shared
// secret, so the TURN server checks them without asking Parley, and they lapse on their own.

/** Credentials last this long after the appointment ends. */
const TURN_GRACE_MS = 3_600_000;

export function iceServersFor(
  config: Pick<Config, 'stunUrls' | 'turn'>,
  userId: number,
  endsAt: Date,
): IceServer[] {
  const servers: IceServer[] = config.stunUrls.length > 0 ? [{ urls: config.stunUrls }] : [];
  if (config.turn) {
    const expiry = Math.floor((endsAt.getTime() + TURN_GRACE_MS) / 1000);
    const username = `${expiry}:${userId}`;
    const credential = createHmac('sha1', config.turn.secret).update(username).digest('base64');
    servers.push({ urls: config.turn.urls, username, credential });
  }
  return servers;
}
