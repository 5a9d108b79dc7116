import { SERVER_TEXT } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, PASSWORD, uniqueEmail, uniqueIp } from '../factories';
import { mailCount, tokenFromLastMail } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

describe('verifying a school and an email', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Signs a school up and returns its admin's email and the token of the verification mail. */
  async function pendingSchool(name = 'Verify Academy') {
    const email = uniqueEmail('pending');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/site/signup',
      remoteAddress: uniqueIp(),
      payload: { subscriberName: name, firstName: 'Ada', lastName: 'Byron', email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const link = await tokenFromLastMail(t.db, email);
    expect(link.path).toBe('/auth/verify-school');
    return { email, token: link.token };
  }

  const verifySchool = (token: string) =>
    t.app.inject({ method: 'GET', url: `/api/site/verify-school?token=${encodeURIComponent(token)}` });
  const verifyEmail = (token: string) =>
    t.app.inject({ method: 'GET', url: `/api/site/verify-email?token=${encodeURIComponent(token)}` });
  const resend = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/site/resend-school-verification',
      remoteAddress: uniqueIp(),
      payload: { email },
    });

  describe('GET /api/site/verify-school', () => {
    it('verifies the school with the spec text; a second click says it is already verified', async () => {
      const { email, token } = await pendingSchool();
      const first = await verifySchool(token);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: 'School account verified successfully! Welcome to Parley.' });

      const second = await verifySchool(token);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({ message: SERVER_TEXT.schoolAlreadyVerified });

      const row = await t.db
        .selectFrom('users as u')
        .innerJoin('schools as s', 's.id', 'u.school_id')
        .select(['s.verified_at', 'u.email_verified_at'])
        .where('u.email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row.verified_at).toBeInstanceOf(Date);
      expect(row.email_verified_at).toBeInstanceOf(Date);
      expect((await login(t.app, email)).statusCode).toBe(200);
    });

    it('refuses an unknown token with the invalid-link message and a missing one with "Token is required."', async () => {
      const unknown = await verifySchool('x'.repeat(43));
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({
        message: SERVER_TEXT.tokenInvalid,
        errors: { token: [SERVER_TEXT.tokenInvalid] },
      });
      const missing = await t.app.inject({ method: 'GET', url: '/api/site/verify-school' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        message: SERVER_TEXT.tokenMissing,
        errors: { token: [SERVER_TEXT.tokenMissing] },
      });
      const empty = await t.app.inject({ method: 'GET', url: '/api/site/verify-school?token=' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ message: SERVER_TEXT.tokenMissing });
    });
  });

  describe('GET /api/site/verify-email', () => {
    it('verifies the email and school and returns an access token that works', async () => {
      const { email, token } = await pendingSchool('Email Verify School');
      const response = await verifyEmail(token);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { accessToken: string; message: string };
      expect(body.message).toBe('Email verified.');
      expect(body.accessToken).toMatch(/^[\w-]{43}$/);

      const data = await t.app.inject({
        method: 'GET',
        url: '/api/users/data',
        headers: bearer(body.accessToken),
      });
      expect(data.statusCode).toBe(200);
      expect(data.json()).toMatchObject({ email, isAdmin: true, subscriberName: 'Email Verify School' });
      // The school is verified too, so its admin can log in with the password.
      expect((await login(t.app, email)).statusCode).toBe(200);
    });

    it('is single use: the same link a second time is refused', async () => {
      const { token } = await pendingSchool();
      expect((await verifyEmail(token)).statusCode).toBe(200);
      const again = await verifyEmail(token);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ message: SERVER_TEXT.tokenInvalid });
    });

    it('refuses a missing token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/site/verify-email' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: SERVER_TEXT.tokenMissing });
    });
  });

  describe('POST /api/site/resend-school-verification', () => {
    it('mails a new link beside the old one (a resend cannot spoil a link); once one is used, the other says already verified', async () => {
      const { email, token: oldToken } = await pendingSchool();
      const response = await resend(email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: SERVER_TEXT.verificationResent });
      expect(await mailCount(t.db, email)).toBe(2);

      const { token: newToken, path } = await tokenFromLastMail(t.db, email);
      expect(path).toBe('/auth/verify-school');
      expect(newToken).not.toBe(oldToken);

      expect((await verifySchool(oldToken)).json()).toEqual({
        message: SERVER_TEXT.schoolVerified('Parley'),
      });
      const other = await verifySchool(newToken);
      expect(other.statusCode).toBe(200);
      expect(other.json()).toEqual({ message: SERVER_TEXT.schoolAlreadyVerified });
      // …and it no longer signs anyone in by the email-confirmation route.
      expect((await verifyEmail(newToken)).statusCode).toBe(400);
    });

    it('sends nothing for a school that is already verified, with the same answer', async () => {
      const { email, token } = await pendingSchool();
      await verifySchool(token);
      const response = await resend(email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: SERVER_TEXT.verificationResent });
      expect(await mailCount(t.db, email)).toBe(1);
    });

    it('answers an unknown email exactly as a known one (no enumeration)', async () => {
      const { email } = await pendingSchool();
      const known = await resend(email);
      const unknown = await resend(uniqueEmail('nobody'));
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    });
  });
});
