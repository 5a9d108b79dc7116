import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import { formatLocalDate } from '@parley/domain/time-zone';
import { RECOVERY_CODE_COUNT } from '@parley/domain/two-factor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../src/lib/secret-box';
import { hashToken } from '../../src/lib/tokens';
import { issueToken } from '../../src/modules/tokens/tokens.repository';
import { clockPerTest } from '../clock-per-test';
import { bearer, invite, login, PASSWORD, registeredSchool } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import {
  challengeFor,
  codeAt,
  enableTwoFactor,
  freshStep,
  get,
  post,
  STEP_SECONDS,
  secondFactor,
} from './two-factor-helpers';

type LoginAnswer = { accessToken: string; user: { id: number; loginCount: number }; message: string };

describe('two-factor sign-in (TOTP with recovery codes)', () => {
  // The limits on wrong codes run on each test's own clock, which the throttling test moves.
  const clock = clockPerTest();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitStore: clock.store });
  });
  afterAll(() => t.close());

  const accessTokensOf = async (userId: number) =>
    (
      await t.db
        .selectFrom('auth_tokens')
        .select('id')
        .where('user_id', '=', userId)
        .where('kind', '=', 'access')
        .execute()
    ).length;

  it('enrols an admin: a pending secret (sealed at rest) and its URI, then a current code turns it on with 10 recovery codes', async () => {
    const admin = await registeredSchool(t.app, t.db, 'Enrol School');
    const before = await get(t.app, '/api/user/two-factor', admin.accessToken);
    expect(before.json()).toEqual({
      available: true,
      enabled: false,
      enabledAt: null,
      enabledAtLabel: null,
      recoveryCodesLeft: 0,
    });

    const started = await post(t.app, '/api/user/start-two-factor', admin.accessToken);
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUri } = started.json() as { secret: string; otpauthUri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri.startsWith(`otpauth://totp/Parley:${encodeURIComponent(admin.email)}?`)).toBe(true);
    const uri = new URL(otpauthUri);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Parley');

    // At rest the secret is sealed: the row does not hold it, the configured key opens it.
    const row = await t.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', admin.userId)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);
    expect(open(t.config.dataEncryptionKey, row.secret, `two-factor:${admin.userId}`)).toBe(secret);
    expect(row.enabled_at).toBeNull();
    expect(row.school_id).toBe(admin.schoolId);
    // Pending is not on: the password alone still signs in.
    expect((await login(t.app, admin.email)).json()).toHaveProperty('accessToken');

    const base = await freshStep();
    const wrong = await post(t.app, '/api/user/confirm-two-factor', admin.accessToken, {
      code: (await codeAt(secret, base)) === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ errors: { code: [SERVER_TEXT.secondFactorWrong] } });
    const malformed = await post(t.app, '/api/user/confirm-two-factor', admin.accessToken, { code: '12ab' });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json()).toMatchObject({ errors: { code: [VALIDATION.totpFormat] } });

    const confirmed = await post(t.app, '/api/user/confirm-two-factor', admin.accessToken, {
      code: await codeAt(secret, base),
    });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes, message } = confirmed.json() as { recoveryCodes: string[]; message: string };
    expect(message).toBe(SERVER_TEXT.twoFactorOn);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);

    // Only hashes are kept.
    const stored = await t.db
      .selectFrom('recovery_codes')
      .select(['code_hash', 'school_id'])
      .where('user_id', '=', admin.userId)
      .execute();
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    const hashes = stored.map((r) => r.code_hash);
    for (const code of recoveryCodes) {
      expect(hashes).not.toContain(code);
      expect(hashes).toContain(hashToken(code.replaceAll('-', '')));
    }

    const after = (await get(t.app, '/api/user/two-factor', admin.accessToken)).json();
    expect(after).toMatchObject({ available: true, enabled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    expect(Date.parse(after.enabledAt)).toBeGreaterThan(Date.now() - 60_000);
    // The day, on the school's clock (issue 36).
    expect(after.enabledAtLabel).toBe(formatLocalDate(new Date(after.enabledAt), 'Europe/London'));
    // Already on: starting again is refused and the secret is kept.
    expect((await post(t.app, '/api/user/start-two-factor', admin.accessToken)).statusCode).toBe(409);
    const kept = await t.db
      .selectFrom('two_factor')
      .select('secret')
      .where('user_id', '=', admin.userId)
      .executeTakeFirstOrThrow();
    expect(open(t.config.dataEncryptionKey, kept.secret, `two-factor:${admin.userId}`)).toBe(secret);
    // Confirming again has nothing pending.
    expect(
      (
        await post(t.app, '/api/user/confirm-two-factor', admin.accessToken, {
          code: await codeAt(secret, base + STEP_SECONDS),
        })
      ).statusCode,
    ).toBe(409);
  });

  it('login: the right password answers a challenge and no session; the challenge and a current code sign in', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep();
    const { secret } = await enableTwoFactor(t.app, admin.accessToken, base);
    const sessionsBefore = await accessTokensOf(admin.userId);

    const first = await login(t.app, admin.email);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toEqual({
      secondFactorRequired: true,
      challenge: expect.any(String),
      message: SERVER_TEXT.secondFactorNeeded,
    });
    expect(body).not.toHaveProperty('accessToken');
    expect(await accessTokensOf(admin.userId)).toBe(sessionsBefore);
    // The challenge is no session.
    const asBearer = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: bearer(body.challenge),
    });
    expect(asBearer.statusCode).toBe(401);
    // A wrong password still says only that.
    expect((await login(t.app, admin.email, 'not the password')).json()).toEqual({
      message: SERVER_TEXT.invalidCredentials,
    });

    const done = await secondFactor(t.app, body.challenge, await codeAt(secret, base + STEP_SECONDS));
    expect(done.statusCode).toBe(200);
    const signedIn = done.json() as LoginAnswer;
    expect(signedIn.message).toBe('Logged in.');
    expect(signedIn.user.id).toBe(admin.userId);
    expect(signedIn.user.loginCount).toBe(2); // counted once the whole login succeeded
    const data = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: bearer(signedIn.accessToken),
    });
    expect(data.statusCode).toBe(200);
    expect(await accessTokensOf(admin.userId)).toBe(sessionsBefore + 1);

    // The challenge was spent with it.
    const again = await secondFactor(t.app, body.challenge, await codeAt(secret, base + STEP_SECONDS));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: SERVER_TEXT.challengeExpired,
      errors: { challenge: [SERVER_TEXT.challengeExpired] },
    });
  });

  it('accepts one time step either side and refuses codes further off', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep(8);
    // Confirmed with the previous step's code (a phone a little behind).
    const { secret } = await enableTwoFactor(t.app, admin.accessToken, base - STEP_SECONDS);

    const challenge = await challengeFor(t.app, admin.email, PASSWORD);
    for (const offset of [-2, 2, 3]) {
      const far = await secondFactor(t.app, challenge, await codeAt(secret, base + offset * STEP_SECONDS));
      expect(far.statusCode, `offset ${offset}`).toBe(422);
    }
    expect((await secondFactor(t.app, challenge, await codeAt(secret, base))).statusCode).toBe(200);
    // The next step's code (a phone a little ahead), in a new login.
    const next = await challengeFor(t.app, admin.email, PASSWORD);
    expect((await secondFactor(t.app, next, await codeAt(secret, base + STEP_SECONDS))).statusCode).toBe(200);
  });

  it('a wrong code answers 422 on the code field and leaves the challenge for another try; an unknown challenge 400', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep();
    const { secret } = await enableTwoFactor(t.app, admin.accessToken, base);
    const challenge = await challengeFor(t.app, admin.email, PASSWORD);
    const right = await codeAt(secret, base + STEP_SECONDS);
    const wrongCode = right === '123456' ? '654321' : '123456';

    for (const code of [wrongCode, 'not-a-code', 'abcd-efgh-jkmn']) {
      const wrong = await secondFactor(t.app, challenge, code);
      expect(wrong.statusCode, code).toBe(422);
      expect(wrong.json()).toEqual({
        message: SERVER_TEXT.secondFactorWrong,
        errors: { code: [SERVER_TEXT.secondFactorWrong] },
      });
    }
    const empty = await secondFactor(t.app, challenge, '');
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ errors: { code: [VALIDATION.required] } });

    const unknown = await secondFactor(t.app, 'no-such-challenge', right);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ errors: { challenge: [SERVER_TEXT.challengeExpired] } });

    expect((await secondFactor(t.app, challenge, right)).statusCode).toBe(200);
  });

  it('a challenge older than its 5 minutes is refused with 400 on the challenge, even with a right code', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep();
    const { secret } = await enableTwoFactor(t.app, admin.accessToken, base);
    const challenge = await challengeFor(t.app, admin.email, PASSWORD);
    const row = await t.db
      .selectFrom('auth_tokens')
      .select(['expires_at', 'created_at'])
      .where('token_hash', '=', hashToken(challenge))
      .executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeLessThanOrEqual(
      5 * 60_000 + 5_000,
    );
    await t.db
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(challenge))
      .execute();
    const late = await secondFactor(t.app, challenge, await codeAt(secret, base + STEP_SECONDS));
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ errors: { challenge: [SERVER_TEXT.challengeExpired] } });
  });

  it('refuses a replayed code: the enrolment code, a code used at login, and an older code after a newer one', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep();
    const { secret } = await enableTwoFactor(t.app, admin.accessToken, base);
    const now = await codeAt(secret, base);
    const next = await codeAt(secret, base + STEP_SECONDS);

    // The code that confirmed the enrolment cannot sign in.
    expect(
      (await secondFactor(t.app, await challengeFor(t.app, admin.email, PASSWORD), now)).statusCode,
    ).toBe(422);
    // Two logins racing with the same fresh code: one session.
    const [a, b] = await Promise.all([
      challengeFor(t.app, admin.email, PASSWORD),
      challengeFor(t.app, admin.email, PASSWORD),
    ]);
    const raced = await Promise.all([secondFactor(t.app, a, next), secondFactor(t.app, b, next)]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    // The same code again, and the older one, in a later login.
    const later = await challengeFor(t.app, admin.email, PASSWORD);
    expect((await secondFactor(t.app, later, next)).statusCode).toBe(422);
    expect((await secondFactor(t.app, later, now)).statusCode).toBe(422);
    const row = await t.db
      .selectFrom('two_factor')
      .select('last_step')
      .where('user_id', '=', admin.userId)
      .executeTakeFirstOrThrow();
    expect(row.last_step).toBe(Math.floor(base / STEP_SECONDS) + 1);
  });

  it('throttles wrong codes per account like wrong passwords: 5 free, then a wait with Retry-After', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep(12);
    const { secret } = await enableTwoFactor(t.app, admin.accessToken, base);
    const challenge = await challengeFor(t.app, admin.email, PASSWORD);
    const right = await codeAt(secret, base + STEP_SECONDS);
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await secondFactor(t.app, challenge, wrongCode)).statusCode, `attempt ${attempt}`).toBe(422);

    // Even the right code waits now (from any address: the count is the account's).
    const held = await secondFactor(t.app, challenge, right);
    expect(held.statusCode).toBe(429);
    expect(held.json()).toEqual({ message: SERVER_TEXT.rateLimited });
    const wait = Number(held.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    clock.advance(wait * 1000 + 50);
    expect((await secondFactor(t.app, challenge, right)).statusCode).toBe(200);
  });

  it('a recovery code signs in once, typed in any case with or without dashes', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep();
    const { recoveryCodes } = await enableTwoFactor(t.app, admin.accessToken, base);
    const [code = ''] = recoveryCodes;

    const typed = code.replaceAll('-', ' ').toUpperCase();
    const done = await secondFactor(t.app, await challengeFor(t.app, admin.email, PASSWORD), typed);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ message: SERVER_TEXT.signedInWithRecoveryCode(9) });
    expect((await get(t.app, '/api/user/two-factor', admin.accessToken)).json()).toMatchObject({
      recoveryCodesLeft: 9,
    });

    const again = await secondFactor(t.app, await challengeFor(t.app, admin.email, PASSWORD), code);
    expect(again.statusCode).toBe(422);
    // Another of the codes still works.
    const other = await secondFactor(
      t.app,
      await challengeFor(t.app, admin.email, PASSWORD),
      recoveryCodes[1] ?? '',
    );
    expect(other.statusCode).toBe(200);
  });

  it('renews the recovery codes with the password: the old ones stop working', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep();
    const { recoveryCodes: old } = await enableTwoFactor(t.app, admin.accessToken, base);

    const wrong = await post(t.app, '/api/user/renew-recovery-codes', admin.accessToken, {
      password: 'nope nope',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ errors: { password: [SERVER_TEXT.wrongPassword] } });
    const neither = await post(t.app, '/api/user/renew-recovery-codes', admin.accessToken, {});
    expect(neither.statusCode).toBe(422);
    expect(neither.json()).toMatchObject({ errors: { code: [VALIDATION.required] } });

    const renewed = await post(t.app, '/api/user/renew-recovery-codes', admin.accessToken, {
      password: PASSWORD,
    });
    expect(renewed.statusCode).toBe(200);
    const { recoveryCodes, message } = renewed.json() as { recoveryCodes: string[]; message: string };
    expect(message).toBe(SERVER_TEXT.recoveryCodesRenewed);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(recoveryCodes.some((code) => old.includes(code))).toBe(false);

    expect(
      (await secondFactor(t.app, await challengeFor(t.app, admin.email, PASSWORD), old[0] ?? '')).statusCode,
    ).toBe(422);
    expect(
      (await secondFactor(t.app, await challengeFor(t.app, admin.email, PASSWORD), recoveryCodes[0] ?? ''))
        .statusCode,
    ).toBe(200);
  });

  it('turns off with a current code (a wrong one is refused): the password alone signs in again', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const base = await freshStep();
    const { secret } = await enableTwoFactor(t.app, admin.accessToken, base);
    const next = await codeAt(secret, base + STEP_SECONDS);

    const wrong = await post(t.app, '/api/user/turn-off-two-factor', admin.accessToken, {
      code: next === '123456' ? '654321' : '123456',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ errors: { code: [SERVER_TEXT.secondFactorWrong] } });
    // The enrolment's own code is spent: no proof.
    const replayed = await post(t.app, '/api/user/turn-off-two-factor', admin.accessToken, {
      code: await codeAt(secret, base),
    });
    expect(replayed.statusCode).toBe(422);
    expect((await get(t.app, '/api/user/two-factor', admin.accessToken)).json()).toMatchObject({
      enabled: true,
    });

    const off = await post(t.app, '/api/user/turn-off-two-factor', admin.accessToken, { code: next });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ message: SERVER_TEXT.twoFactorOff });
    expect((await get(t.app, '/api/user/two-factor', admin.accessToken)).json()).toEqual({
      available: true,
      enabled: false,
      enabledAt: null,
      enabledAtLabel: null,
      recoveryCodesLeft: 0,
    });
    const rows = await t.db
      .selectFrom('recovery_codes')
      .select('id')
      .where('user_id', '=', admin.userId)
      .execute();
    expect(rows).toHaveLength(0);
    expect((await login(t.app, admin.email)).json()).toHaveProperty('accessToken');
    // Nothing left to turn off.
    const again = await post(t.app, '/api/user/turn-off-two-factor', admin.accessToken, {
      password: PASSWORD,
    });
    expect(again.statusCode).toBe(409);
  });

  it('turns off with the password too', async () => {
    const admin = await registeredSchool(t.app, t.db);
    await enableTwoFactor(t.app, admin.accessToken, await freshStep());
    const off = await post(t.app, '/api/user/turn-off-two-factor', admin.accessToken, { password: PASSWORD });
    expect(off.statusCode).toBe(200);
    expect((await login(t.app, admin.email)).json()).toHaveProperty('accessToken');
  });

  it('a teacher (not an admin) cannot turn it on', async () => {
    const admin = await registeredSchool(t.app, t.db);
    const invited = await invite(t, admin.schoolId, { role: 'teacher' });
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/users/set-teacher-password',
      payload: { token: invited.token, password: PASSWORD },
    });
    expect(set.statusCode).toBe(200);
    const teacher = set.json() as LoginAnswer;

    expect((await get(t.app, '/api/user/two-factor', teacher.accessToken)).json()).toEqual({
      available: false,
      enabled: false,
      enabledAt: null,
      enabledAtLabel: null,
      recoveryCodesLeft: 0,
    });
    const start = await post(t.app, '/api/user/start-two-factor', teacher.accessToken);
    expect(start.statusCode).toBe(403);
    expect(start.json()).toEqual({ message: SERVER_TEXT.forbidden });
    expect(
      (await post(t.app, '/api/user/confirm-two-factor', teacher.accessToken, { code: '123456' })).statusCode,
    ).toBe(403);
    const rows = await t.db
      .selectFrom('two_factor')
      .select('user_id')
      .where('user_id', '=', invited.userId)
      .execute();
    expect(rows).toHaveLength(0);
    // And a stranger gets 401 on every two-factor route.
    for (const url of [
      '/api/user/start-two-factor',
      '/api/user/confirm-two-factor',
      '/api/user/turn-off-two-factor',
    ])
      expect((await post(t.app, url, null, {})).statusCode, url).toBe(401);
  });

  it('an email-confirmation link does not sign in someone with two-factor sign-in on', async () => {
    const admin = await registeredSchool(t.app, t.db);
    await enableTwoFactor(t.app, admin.accessToken, await freshStep());
    const token = await issueToken(t.db, { userId: admin.userId, schoolId: admin.schoolId, kind: 'verify' });
    const verified = await t.app.inject({ method: 'GET', url: `/api/site/verify-email?token=${token}` });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ accessToken: null, message: 'Email verified.' });
  });
});
