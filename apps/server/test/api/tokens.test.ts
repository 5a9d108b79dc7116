import { TOKEN_TTL_MS } from '@parley/domain/constants';
import { SERVER_TEXT } from '@parley/domain/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenKind } from '../../src/db/schema';
import { hashToken } from '../../src/lib/tokens';
import { invite, PASSWORD, registeredSchool, signedUpSchool, uniqueIp } from '../factories';
import { tokenFromLastMail } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

const HOUR = 3600_000;
const invalidLink = { message: SERVER_TEXT.tokenInvalid, errors: { token: [SERVER_TEXT.tokenInvalid] } };

describe('token rules', () => {
  let t: TestApp;
  let school: Awaited<ReturnType<typeof registeredSchool>>;
  beforeAll(async () => {
    t = await createTestApp();
    school = await registeredSchool(t.app, t.db, 'Token School');
  });
  afterAll(() => t.close());

  const tokenRow = (raw: string) =>
    t.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(raw))
      .executeTakeFirstOrThrow();
  const expire = (raw: string) =>
    t.db
      .updateTable('auth_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('token_hash', '=', hashToken(raw))
      .execute();
  const lifetimeMs = async (raw: string) => {
    const row = await tokenRow(raw);
    return row.expires_at.getTime() - row.created_at.getTime();
  };

  async function resetToken(email: string) {
    await t.app.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      remoteAddress: uniqueIp(),
      payload: { email },
    });
    return (await tokenFromLastMail(t.db, email)).token;
  }

  describe('lifetimes (expires_at − created_at)', () => {
    it('verification links live 48 hours', async () => {
      const { verifyToken } = await signedUpSchool(t.app, t.db, { verify: false });
      expect((await tokenRow(verifyToken)).kind).toBe('verify');
      expect(Math.abs((await lifetimeMs(verifyToken)) - 48 * HOUR)).toBeLessThan(5_000);
      expect(TOKEN_TTL_MS.verify).toBe(48 * HOUR);
    });

    it('reset links live 1 hour', async () => {
      const token = await resetToken(school.email);
      expect((await tokenRow(token)).kind).toBe('reset');
      expect(Math.abs((await lifetimeMs(token)) - HOUR)).toBeLessThan(5_000);
    });

    it('invitation links live 7 days', async () => {
      const { token } = await invite(t, school.schoolId, { role: 'parent' });
      expect((await tokenRow(token)).kind).toBe('invite');
      expect(Math.abs((await lifetimeMs(token)) - 7 * 24 * HOUR)).toBeLessThan(5_000);
    });
  });

  describe('storage', () => {
    it('keeps only the SHA-256 of every token: no raw token from a mail is in auth_tokens', async () => {
      const { verifyToken } = await signedUpSchool(t.app, t.db, { verify: false });
      const reset = await resetToken(school.email);
      const invited = await invite(t, school.schoolId, { role: 'student' });
      const rows = await t.db.selectFrom('auth_tokens').selectAll().execute();
      const stored = JSON.stringify(rows);
      for (const raw of [verifyToken, reset, invited.token]) {
        expect(raw).toMatch(/^[\w-]{43}$/); // 256 bits, base64url
        expect(stored).not.toContain(raw);
        expect(rows.filter((row) => row.token_hash === hashToken(raw))).toHaveLength(1);
      }
    });
  });

  describe('expiry: a link past expires_at is refused with the invalid-link message', () => {
    it('verify-school and verify-email', async () => {
      const { verifyToken } = await signedUpSchool(t.app, t.db, { verify: false });
      await expire(verifyToken);
      for (const path of ['verify-school', 'verify-email']) {
        const response = await t.app.inject({ method: 'GET', url: `/api/site/${path}?token=${verifyToken}` });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidLink);
      }
    });

    it('reset-password', async () => {
      const token = await resetToken(school.email);
      await expire(token);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/user/reset-password?token=${token}`,
        payload: { password: 'a new password' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidLink);
    });

    it('accept-teacher-invite and set-teacher-password', async () => {
      const { token } = await invite(t, school.schoolId, { role: 'teacher' });
      await expire(token);
      const accept = await t.app.inject({
        method: 'GET',
        url: `/api/users/accept-teacher-invite?token=${token}`,
      });
      expect(accept.statusCode).toBe(400);
      expect(accept.json()).toEqual(invalidLink);
      const set = await t.app.inject({
        method: 'POST',
        url: '/api/users/set-teacher-password',
        payload: { token, password: PASSWORD },
      });
      expect(set.statusCode).toBe(400);
      expect(set.json()).toEqual(invalidLink);
    });
  });

  describe('single use', () => {
    it.each<[string, TokenKind]>([
      ['verify-email', 'verify'],
      ['set-teacher-password', 'invite'],
      ['reset-password', 'reset'],
    ])('%s: the second use is refused and the row is marked used', async (name, kind) => {
      let token: string;
      let use: () => Promise<{ statusCode: number; json(): unknown }>;
      if (kind === 'verify') {
        token = (await signedUpSchool(t.app, t.db, { verify: false })).verifyToken;
        use = () => t.app.inject({ method: 'GET', url: `/api/site/verify-email?token=${token}` });
      } else if (kind === 'invite') {
        token = (await invite(t, school.schoolId, { role: 'teacher' })).token;
        use = () =>
          t.app.inject({
            method: 'POST',
            url: '/api/users/set-teacher-password',
            payload: { token, password: PASSWORD },
          });
      } else {
        token = await resetToken((await registeredSchool(t.app, t.db)).email);
        use = () =>
          t.app.inject({
            method: 'POST',
            url: `/api/user/reset-password?token=${token}`,
            payload: { password: PASSWORD },
          });
      }
      expect((await use()).statusCode, name).toBe(200);
      expect((await tokenRow(token)).used_at).toBeInstanceOf(Date);
      const again = await use();
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(invalidLink);
    });

    it('two racing uses of one reset link: exactly one wins', async () => {
      const token = await resetToken((await registeredSchool(t.app, t.db)).email);
      const use = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/user/reset-password?token=${token}`,
          payload: { password },
        });
      const answers = await Promise.all([use('first racer pw'), use('second racer pw')]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    });
  });
});
