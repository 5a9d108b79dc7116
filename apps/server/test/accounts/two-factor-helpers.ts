import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { bearer, uniqueIp } from '../factories';

// Two-factor sign-in through the API, for the tests of decision 015.

export const STEP_SECONDS = 30;

/** The TOTP code of a secret at an instant (seconds since the epoch), as an authenticator app shows it. */
export const codeAt = (secret: string, epochSeconds: number) => generate({ secret, epoch: epochSeconds });

/**
 * Now, in seconds, with at least `marginSeconds` left in the current 30-second step (waiting for the next
 * step if needed): codes a test computes for "this step", "the one before" and "the one after" stay so
 * while the test runs.
 */
export async function freshStep(marginSeconds = 6): Promise<number> {
  const left = STEP_SECONDS - ((Date.now() / 1000) % STEP_SECONDS);
  if (left < marginSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
  return Math.floor(Date.now() / 1000);
}

export const post = (app: FastifyInstance, url: string, token: string | null, payload?: unknown) =>
  app.inject({
    method: 'POST',
    url,
    remoteAddress: uniqueIp(),
    headers: token ? bearer(token) : {},
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  });

export const get = (app: FastifyInstance, url: string, token: string) =>
  app.inject({ method: 'GET', url, headers: bearer(token) });

export type Enrolment = { secret: string; otpauthUri: string; recoveryCodes: string[] };

/** Starts and confirms two-factor sign-in with the code of the step at `epochSeconds`. */
export async function enableTwoFactor(
  app: FastifyInstance,
  token: string,
  epochSeconds: number,
): Promise<Enrolment> {
  const started = await post(app, '/api/user/start-two-factor', token);
  if (started.statusCode !== 200) throw new Error(`start failed: ${started.body}`);
  const { secret, otpauthUri } = started.json() as { secret: string; otpauthUri: string };
  const confirmed = await post(app, '/api/user/confirm-two-factor', token, {
    code: await codeAt(secret, epochSeconds),
  });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  return { secret, otpauthUri, ...(confirmed.json() as { recoveryCodes: string[] }) };
}

/** The first step of a login that asks for a second factor: its challenge. */
export async function challengeFor(app: FastifyInstance, email: string, password: string): Promise<string> {
  const first = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    remoteAddress: uniqueIp(),
    payload: { email, password },
  });
  const body = first.json() as { challenge?: string };
  if (first.statusCode !== 200 || !body.challenge) throw new Error(`no challenge: ${first.body}`);
  return body.challenge;
}

export const secondFactor = (
  app: FastifyInstance,
  challenge: string,
  code: string,
  remoteAddress = uniqueIp(),
): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'POST',
    url: '/api/user/login-second-factor',
    remoteAddress,
    payload: { challenge, code },
  });
