import type { Role } from '@parley/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import type { AppContext } from '../src/context';
import type { Db } from '../src/db/database';
import { Background } from '../src/lib/background';
import { noBotCheck } from '../src/lib/bot-check';
import { Metrics } from '../src/lib/metrics';
import { MemoryStore, RateLimiter } from '../src/lib/rate-limiter';
import { inviteUser } from '../src/modules/invitations/invitations.service';
import { LiveHub } from '../src/modules/live/live-hub';
import { tokenFromLastMail } from './mailbox';

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}${++counter}.${Date.now()}@example.org`;

let ipCounter = 0;
/** A fresh client address for inject's remoteAddress: keeps per-IP rate limits of one test out of another's. */
export const uniqueIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

export const PASSWORD = 'correct horse battery';

/** Signs a school up through the API from a fresh address and (unless told not to) opens the verify link. */
export async function signedUpSchool(
  app: FastifyInstance,
  db: Db,
  options: { name?: string; verify?: boolean } = {},
) {
  const email = uniqueEmail('admin');
  // Each school signs up from its own address: a file may register more schools than the per-IP limit.
  const signup = await app.inject({
    method: 'POST',
    url: '/api/site/signup',
    remoteAddress: uniqueIp(),
    payload: {
      subscriberName: options.name ?? 'Green Hill Academy',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: PASSWORD,
    },
  });
  if (signup.statusCode !== 200) throw new Error(`signup failed: ${signup.body}`);
  const { token } = await tokenFromLastMail(db, email);
  if (options.verify !== false) {
    const verified = await app.inject({ method: 'GET', url: `/api/site/verify-school?token=${token}` });
    if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  }
  return { email, verifyToken: token };
}

/** Registers and verifies a school through the API; returns the admin's login answer. */
export async function registeredSchool(app: FastifyInstance, db: Db, name = 'Green Hill Academy') {
  const { email } = await signedUpSchool(app, db, { name });
  const login = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    remoteAddress: uniqueIp(),
    payload: { email, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const body = login.json() as { accessToken: string; user: { id: number; schoolId: number } };
  return { email, accessToken: body.accessToken, userId: body.user.id, schoolId: body.user.schoolId };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What the invitation service needs, built around a test app's database and config. */
export function testContext(t: { db: Db; config: Config }): AppContext {
  return {
    db: t.db,
    config: t.config,
    rateLimiter: new RateLimiter(new MemoryStore()),
    botCheck: noBotCheck,
    background: new Background(console),
    metrics: new Metrics(),
    databaseStarted: () => true,
    live: new LiveHub(t.db, console),
  };
}

/** A process that stops after its answer: what it leaves to do after the answer never runs. */
class StoppedBackground extends Background {
  override run(): void {}
}

/** The context of a process that answers and then stops (a job it starts is left half done, its lease held). */
export function stoppedContext(t: { db: Db; config: Config }): AppContext {
  return { ...testContext(t), background: new StoppedBackground(console) };
}

/**
 * Invites a person through the service (no HTTP endpoint yet), in a transaction as its callers do,
 * and returns the token and path of the link in the invitation mail.
 */
export async function invite(
  t: { db: Db; config: Config },
  schoolId: number,
  invitee: { role: Role; email?: string; firstName?: string; lastName?: string },
) {
  const email = invitee.email ?? uniqueEmail(invitee.role);
  const result = await t.db.transaction().execute((trx) =>
    inviteUser(testContext(t), trx, schoolId, {
      email,
      firstName: invitee.firstName ?? 'Grace',
      lastName: invitee.lastName ?? 'Hopper',
      role: invitee.role,
    }),
  );
  const link = await tokenFromLastMail(t.db, email);
  return { email, ...result, ...link };
}

/** POST user/login from a given address (a fresh one unless told). */
export function login(app: FastifyInstance, email: string, password = PASSWORD, remoteAddress = uniqueIp()) {
  return app.inject({ method: 'POST', url: '/api/user/login', remoteAddress, payload: { email, password } });
}
