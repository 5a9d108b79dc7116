import { SERVER_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/lib/http-error';
import { bearer, invite, login, PASSWORD, registeredSchool, uniqueEmail, uniqueIp } from '../factories';
import { lastMailTo, mailCount, tokenFromLastMail } from '../mailbox';
import { createTestApp, TEST_APP_URL, type TestApp } from '../test-app';

type LoginAnswer = { accessToken: string; message: string; user: { roles: Role[]; email: string } };

describe('invitations', () => {
  let t: TestApp;
  let school: Awaited<ReturnType<typeof registeredSchool>>;
  beforeAll(async () => {
    t = await createTestApp();
    school = await registeredSchool(t.app, t.db, 'Invite Academy');
  });
  afterAll(() => t.close());

  const accept = (role: Role, token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/users/accept-${role}-invite?token=${encodeURIComponent(token)}`,
    });
  const setPassword = (path: string, token: string, password = PASSWORD) =>
    t.app.inject({ method: 'POST', url: `/api/users/${path}`, payload: { token, password } });
  const rolesOf = (userId: number) =>
    t.db.selectFrom('user_roles').selectAll().where('user_id', '=', userId).orderBy('role').execute();
  const resend = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/resend-invitation',
      remoteAddress: uniqueIp(),
      payload: { email },
    });

  it('teacher: invite → mail with the accept link → needsPassword → set-teacher-password signs in', async () => {
    const invited = await invite(t, school.schoolId, {
      role: 'teacher',
      firstName: 'Alan',
      lastName: 'Turing',
    });
    expect(invited.created).toBe(true);
    expect(invited.path).toBe('/accept-teacher-invite');
    const mail = await lastMailTo(t.db, invited.email);
    expect(mail?.subject).toBe('Invite Academy invites you to Parley');
    expect(mail?.links[0]).toBe(`${TEST_APP_URL}/accept-teacher-invite?token=${invited.token}`);
    expect(mail?.text_body).toContain('as a teacher');

    const shown = await accept('teacher', invited.token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      message: SERVER_TEXT.invitationValid,
      email: invited.email,
      firstName: 'Alan',
      role: 'teacher',
      subscriberName: 'Invite Academy',
      needsPassword: true,
    });
    // Looking at the invitation does not use it up.
    expect((await accept('teacher', invited.token)).statusCode).toBe(200);

    const set = await setPassword('set-teacher-password', invited.token);
    expect(set.statusCode).toBe(200);
    const body = set.json() as LoginAnswer;
    expect(body.message).toBe(SERVER_TEXT.passwordSet);
    expect(body.user).toMatchObject({
      email: invited.email,
      roles: ['teacher'],
      isTeacher: true,
      isAdmin: false,
    });
    const data = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: bearer(body.accessToken),
    });
    expect(data.statusCode).toBe(200);

    const [role] = await rolesOf(invited.userId);
    expect(role?.accepted_at).toBeInstanceOf(Date);
    expect((await login(t.app, invited.email)).statusCode).toBe(200);
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', invited.userId)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it.each<[Role, string, string]>([
    ['admin', '/admins/accept-admin-invite', 'set-admin-password'],
    ['parent', '/accept-parent-invite', 'set-new-password'],
    ['student', '/accept-student-invite', 'set-new-password'],
  ])('%s: link %s, then %s signs in', async (role, path, passwordPath) => {
    const invited = await invite(t, school.schoolId, { role });
    expect(invited.path).toBe(path);
    const shown = await accept(role, invited.token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ role, needsPassword: true, email: invited.email });
    const set = await setPassword(passwordPath, invited.token);
    expect(set.statusCode).toBe(200);
    expect((set.json() as LoginAnswer).user.roles).toEqual([role]);
  });

  it('an email with an account in the same school gets the role at once: one user, two roles, no password to set', async () => {
    const admin = await registeredSchool(t.app, t.db, 'Two Hats School');
    const invited = await invite(t, admin.schoolId, { role: 'teacher', email: admin.email.toUpperCase() });
    expect(invited).toMatchObject({ userId: admin.userId, created: false, hasAccount: true });
    expect(
      await t.db.selectFrom('users').select('id').where('email', '=', admin.email).execute(),
    ).toHaveLength(1);
    expect((await rolesOf(admin.userId)).map((r) => r.role)).toEqual(['admin', 'teacher']);
    // They have a password: the role is theirs, they are told so and shown the way in, not invited.
    expect((await rolesOf(admin.userId)).find((r) => r.role === 'teacher')?.accepted_at).toBeInstanceOf(Date);
    const mail = await lastMailTo(t.db, admin.email);
    expect(mail?.subject).toBe('Two Hats School added you on Parley as a teacher');
    expect(mail?.links).toEqual([`${TEST_APP_URL}/auth/login`]);
    const liveInvites = await t.db
      .selectFrom('auth_tokens')
      .select('id')
      .where('user_id', '=', admin.userId)
      .where('kind', '=', 'invite')
      .where('used_at', 'is', null)
      .execute();
    expect(liveInvites).toHaveLength(0);
    // The old password signs in with both roles.
    const signedIn = (await login(t.app, admin.email)).json() as LoginAnswer;
    expect(signedIn.user.roles).toEqual(['admin', 'teacher']);
    const index = await t.app.inject({
      method: 'GET',
      url: '/api/site/index',
      headers: bearer(signedIn.accessToken),
    });
    expect(index.json()).toMatchObject({ viewAsSelectorItems: [{ value: 'teacher', label: 'Teacher' }] });
  });

  it('an email of another school is refused with 409 and nothing changes', async () => {
    const other = await registeredSchool(t.app, t.db, 'Other School');
    const mailsBefore = await mailCount(t.db, other.email);
    const refused = await invite(t, school.schoolId, { role: 'parent', email: other.email }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({
      statusCode: 409,
      message: 'This email is already registered with another school.',
      errors: { email: [SERVER_TEXT.otherSchoolEmail] },
    });
    expect((await rolesOf(other.userId)).map((r) => r.role)).toEqual(['admin']);
    expect(await mailCount(t.db, other.email)).toBe(mailsBefore);
  });

  it('a teacher token is refused on set-admin-password and accept-admin-invite, and stays usable', async () => {
    const invited = await invite(t, school.schoolId, { role: 'teacher' });
    const wrongSet = await setPassword('set-admin-password', invited.token);
    expect(wrongSet.statusCode).toBe(400);
    expect(wrongSet.json()).toEqual({
      message: SERVER_TEXT.tokenInvalid,
      errors: { token: [SERVER_TEXT.tokenInvalid] },
    });
    expect((await setPassword('set-new-password', invited.token)).statusCode).toBe(400);
    expect((await accept('admin', invited.token)).statusCode).toBe(400);
    expect((await rolesOf(invited.userId)).map((r) => r.role)).toEqual(['teacher']);
    expect((await setPassword('set-teacher-password', invited.token)).statusCode).toBe(200);
  });

  it('one password accepts every role the person was invited to', async () => {
    const email = uniqueEmail('family');
    const asParent = await invite(t, school.schoolId, { role: 'parent', email });
    const asTeacher = await invite(t, school.schoolId, { role: 'teacher', email });
    expect(asTeacher).toMatchObject({ userId: asParent.userId, created: false });
    // The newer invitation replaced the older link.
    expect((await accept('parent', asParent.token)).statusCode).toBe(400);
    const set = await setPassword('set-teacher-password', asTeacher.token);
    expect((set.json() as LoginAnswer).user.roles).toEqual(['teacher', 'parent']);
    expect((await rolesOf(asParent.userId)).every((r) => r.accepted_at instanceof Date)).toBe(true);
  });

  it('refuses a missing token and an unknown one', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/users/accept-teacher-invite' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: SERVER_TEXT.tokenMissing });
    expect((await accept('teacher', 'Z'.repeat(43))).statusCode).toBe(400);
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/users/set-teacher-password',
      payload: { password: PASSWORD },
    });
    expect(noToken.statusCode).toBe(422);
    expect(noToken.json()).toMatchObject({ errors: { token: ['Required.'] } });
  });

  describe('POST /api/user/resend-invitation', () => {
    it('mails a fresh link beside the old one (a resend cannot spoil a link); setting the password ends both', async () => {
      const invited = await invite(t, school.schoolId, { role: 'teacher' });
      const response = await resend(invited.email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: SERVER_TEXT.invitationResent });
      expect(await mailCount(t.db, invited.email)).toBe(2);
      const fresh = await tokenFromLastMail(t.db, invited.email);
      expect(fresh.path).toBe('/accept-teacher-invite');
      expect(fresh.token).not.toBe(invited.token);

      expect((await accept('teacher', fresh.token)).statusCode).toBe(200);
      expect((await accept('teacher', invited.token)).statusCode).toBe(200);
      expect((await setPassword('set-teacher-password', invited.token)).statusCode).toBe(200);
      // Opened again, either link says it is accepted and leads to the login, not "invalid" (issue 36).
      for (const token of [fresh.token, invited.token]) {
        const done = await accept('teacher', token);
        expect(done.statusCode).toBe(200);
        expect(done.json()).toMatchObject({
          message: SERVER_TEXT.invitationUsed,
          needsPassword: false,
          email: invited.email,
          role: 'teacher',
        });
        expect((await setPassword('set-teacher-password', token)).statusCode).toBe(400);
      }
      // For another role's page it is still no invitation at all.
      expect((await accept('parent', invited.token)).statusCode).toBe(400);
    });

    it('sends nothing once the invitation is accepted, with the same answer', async () => {
      const invited = await invite(t, school.schoolId, { role: 'student' });
      await setPassword('set-new-password', invited.token);
      const response = await resend(invited.email);
      expect(response.json()).toEqual({ message: SERVER_TEXT.invitationResent });
      expect(await mailCount(t.db, invited.email)).toBe(1);
    });

    it('answers an unknown email exactly as an invited one (no enumeration)', async () => {
      const invited = await invite(t, school.schoolId, { role: 'parent' });
      const known = await resend(invited.email);
      const unknown = await resend(uniqueEmail('nobody'));
      const admin = await resend(school.email);
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(admin.body).toBe(known.body);
    });
  });

  it('a deactivated invitee cannot set a password from the invitation', async () => {
    const invited = await invite(t, school.schoolId, {
      role: 'parent',
      firstName: 'Dee',
      lastName: 'Activated',
    });
    await t.db.updateTable('users').set({ status: 0 }).where('email', '=', invited.email).execute();
    const res = await setPassword('set-new-password', invited.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(SERVER_TEXT.accountInactive);
  });

  it('an invitation never overwrites a password the person already has', async () => {
    const invited = await invite(t, school.schoolId, {
      role: 'teacher',
      firstName: 'Has',
      lastName: 'Password',
    });
    await t.db
      .updateTable('users')
      .set({ password_hash: 'kept' })
      .where('email', '=', invited.email)
      .execute();
    const res = await setPassword('set-teacher-password', invited.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SERVER_TEXT.invitationAccepted);
    const user = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', invited.email)
      .executeTakeFirst();
    expect(user?.password_hash).toBe('kept');
  });
});
