import type { LoginRequest, SignupRequest } from '@parley/domain/auth';
import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import type { User } from '../../db/schema';
import { assertNotBreached } from '../../lib/breached-passwords';
import { type DeviceCookies, rememberDevice, trustedDevice } from '../../lib/device-cookie';
import { badRequest, forbidden, HttpError, unprocessable } from '../../lib/http-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { isUniqueViolation } from '../../lib/pg-errors';
import {
  admitLogin,
  enforceRateLimit,
  forgetLoginFailures,
  loginFailed,
  loginSucceeded,
  mayMail,
  trustChallenge,
} from '../../lib/rate-limit';
import { RATE_RULES } from '../../lib/rate-limiter';
import type { SessionClient } from '../../lib/session-client';
import { hashToken } from '../../lib/tokens';
import { passwordResetMail, schoolVerificationMail } from '../../mail/templates';
import { startTrial } from '../billing/billing.service';
import { createDefaultEventTypes } from '../events/event-types.repository';
import { createSampleEvents } from '../events/sample-events';
import { twoFactorEnabled } from '../profile/two-factor.repository';
import { consumeToken, issueToken, revokeAccessToken, revokeTokens } from '../tokens/tokens.repository';
import { mailNewLink } from '../tokens/tokens.service';
import { toCurrentUser } from '../users/current-user';
import {
  acceptInvitedRoles,
  countLogin,
  createUser,
  emailExists,
  findRoles,
  findUserByEmail,
  findUserById,
  findUserWithSchool,
  grantRole,
  markEmailVerified,
  setPassword,
} from '../users/users.repository';
import {
  createSchool,
  findSchool,
  findSchoolByVerifyTokenHash,
  markSchoolVerified,
} from './accounts.repository';

function requireToken(token: string | undefined): string {
  if (!token) throw badRequest(SERVER_TEXT.tokenMissing, { token: [SERVER_TEXT.tokenMissing] });
  return token;
}

const invalidToken = () => badRequest(SERVER_TEXT.tokenInvalid, { token: [SERVER_TEXT.tokenInvalid] });

/** Registers a school with its first admin (pending until the emailed link is opened). */
export async function signup(ctx: AppContext, input: SignupRequest & { email: string }, ip: string) {
  await enforceRateLimit(ctx, [[RATE_RULES.signupPerIp, ip]]);
  assertNotBreached(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const school = await createSchool(trx, input.subscriberName);
      await startTrial(ctx, trx, school.id);
      const user = await createUser(trx, {
        schoolId: school.id,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
      });
      await grantRole(trx, { userId: user.id, schoolId: school.id, role: 'admin', accepted: true });
      await createDefaultEventTypes(trx, school.id);
      await createSampleEvents(trx, school.id);
      const admin = { id: user.id, email: input.email, first_name: input.firstName, school };
      await mailNewLink(ctx, trx, admin, { kind: 'verify' }, schoolVerificationMail);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw unprocessable(VALIDATION.emailInUse, { email: [VALIDATION.emailInUse] });
    throw error;
  }
  return { success: true, message: SERVER_TEXT.signupDone };
}

export async function emailTakenForSignup(ctx: AppContext, q: string, ip: string) {
  await enforceRateLimit(ctx, [[RATE_RULES.emailSearchPerIp, ip]]);
  return { exists: await emailExists(ctx.db, q.trim()) };
}

/** The signup link: verifies the school and its admin's email in one step. */
export async function verifySchool(ctx: AppContext, rawToken: string | undefined) {
  const token = requireToken(rawToken);
  const used = await ctx.db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, token, 'verify');
    if (!row) return undefined;
    await markSchoolVerified(trx, row.school_id);
    await markEmailVerified(trx, row.user_id);
    // A resend keeps earlier links alive; once one is used, the others only say "already verified".
    await revokeTokens(trx, row.user_id, ['verify']);
    return row;
  });
  if (!used) {
    const school = await findSchoolByVerifyTokenHash(ctx.db, hashToken(token));
    if (school?.verified_at) return { message: SERVER_TEXT.schoolAlreadyVerified };
    throw invalidToken();
  }
  return { message: SERVER_TEXT.schoolVerified(ctx.config.appName) };
}

/**
 * An email-confirmation link: confirms the address (and the school, for its first admin) and signs in —
 * unless two-factor sign-in is on: a mailbox is no second factor, so that person logs in.
 */
export async function verifyEmail(ctx: AppContext, rawToken: string | undefined, client: SessionClient) {
  const token = requireToken(rawToken);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, token, 'verify');
    if (!row) throw invalidToken();
    await markEmailVerified(trx, row.user_id);
    await markSchoolVerified(trx, row.school_id);
    await revokeTokens(trx, row.user_id, ['verify']);
    const owner = { userId: row.user_id, schoolId: row.school_id };
    if (await twoFactorEnabled(trx, owner)) return { accessToken: null, message: 'Email verified.' };
    const accessToken = await issueToken(trx, { ...owner, kind: 'access', client });
    return { accessToken, message: 'Email verified.' };
  });
}

/**
 * Same answer, in the same time, whether or not the email is a school awaiting verification: the one
 * lookup every request makes is done here, the rest after the answer (decision 010).
 */
export async function resendSchoolVerification(ctx: AppContext, email: string, ip: string) {
  if (await mayMail(ctx, ip, email)) {
    const user = await findUserByEmail(ctx.db, email);
    if (user) ctx.background.run('resend school verification', () => resendVerificationMail(ctx, user));
  }
  return { message: SERVER_TEXT.verificationResent };
}

/** A new link beside the earlier ones: a flood of resends cannot spoil the link already in the inbox. */
async function resendVerificationMail(ctx: AppContext, user: User) {
  const school = await findSchool(ctx.db, user.school_id);
  const roles = await findRoles(ctx.db, user.id);
  if (school.verified_at || !roles.includes('admin')) return;
  await ctx.db
    .transaction()
    .execute((trx) => mailNewLink(ctx, trx, { ...user, school }, { kind: 'verify' }, schoolVerificationMail));
}

/**
 * Throttled by failures, per account and per address, never by successes (decision 010); a browser with
 * this login's device cookie by its own failures instead (decision 033), and a whole sign-in gives it one.
 * With two-factor sign-in on, the right password earns a short-lived challenge instead of a session
 * (decision 015).
 */
export async function login(
  ctx: AppContext,
  input: LoginRequest & { email: string },
  client: SessionClient,
  cookies: DeviceCookies,
) {
  const { ip } = client;
  const { email, botCheckToken } = input;
  const { device } = await admitLogin(ctx, {
    ip,
    email,
    botCheckToken,
    device: trustedDevice(cookies, email),
  });
  const found = await findUserWithSchool(ctx.db, { email });
  // Verify even when there is no account, so the answer takes as long either way.
  const passwordOk = await verifyPassword(found?.password_hash ?? null, input.password);
  if (!found || !passwordOk) {
    await loginFailed(ctx, ip, device !== null);
    throw new HttpError(422, SERVER_TEXT.invalidCredentials);
  }
  const owner = { userId: found.id, schoolId: found.school_id };
  const secondFactor = await twoFactorEnabled(ctx.db, owner);
  // The address and the device are remembered (decision 010, 033) once the whole login has succeeded.
  await loginSucceeded(ctx, { ip, email, device }, { remember: !secondFactor });
  if (!found.schoolVerifiedAt) throw forbidden(SERVER_TEXT.schoolNotVerified);
  if (found.status !== 1) throw forbidden(SERVER_TEXT.accountInactive);
  if (secondFactor) {
    const challenge = await issueToken(ctx.db, { ...owner, kind: 'challenge' });
    if (device) await trustChallenge(ctx, challenge);
    return { secondFactorRequired: true as const, challenge, message: SERVER_TEXT.secondFactorNeeded };
  }
  rememberDevice(cookies, email);
  return startSession(ctx, found.id, 'Logged in.', client);
}

/** A fresh access token for the user, counted as a login. */
export async function startSession(ctx: AppContext, userId: number, message: string, client?: SessionClient) {
  return ctx.db.transaction().execute(async (trx) => {
    await countLogin(trx, userId);
    const user = await findUserWithSchool(trx, { id: userId });
    if (!user) throw new HttpError(404, SERVER_TEXT.notFound);
    const accessToken = await issueToken(trx, {
      userId,
      schoolId: user.school_id,
      kind: 'access',
      ...(client && { client }),
    });
    const roles = await findRoles(trx, userId);
    return { accessToken, user: toCurrentUser(user, roles, user.schoolName, accessToken), message };
  });
}

export async function logout(ctx: AppContext, token: string | null) {
  if (token) await revokeAccessToken(ctx.db, token);
  return { message: SERVER_TEXT.loggedOut };
}

/**
 * Same answer, in the same time, whether or not the email has an account: the one lookup every request
 * makes is done here, the token and the mail after the answer (decision 010).
 */
export async function requestPasswordReset(ctx: AppContext, email: string, ip: string) {
  if (await mayMail(ctx, ip, email)) {
    const user = await findUserByEmail(ctx.db, email);
    if (user && user.status === 1) ctx.background.run('password reset mail', () => sendResetMail(ctx, user));
  }
  return { message: SERVER_TEXT.resetRequested };
}

/** A new link beside the earlier ones (each lives an hour; using one ends them all, see resetPassword). */
async function sendResetMail(ctx: AppContext, user: User) {
  const school = await findSchool(ctx.db, user.school_id);
  await ctx.db
    .transaction()
    .execute((trx) => mailNewLink(ctx, trx, { ...user, school }, { kind: 'reset' }, passwordResetMail));
}

/** A reset signs the user out everywhere: whoever knew the old password loses their session. */
export async function resetPassword(ctx: AppContext, rawToken: string | undefined, password: string) {
  const token = requireToken(rawToken);
  assertNotBreached(password);
  const passwordHash = await hashPassword(password);
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, token, 'reset');
    if (!row) throw invalidToken();
    await setPassword(trx, row.user_id, passwordHash);
    // The reset link proves the mailbox as an invitation's does: roles waiting for it are accepted, and
    // the invitation links are done.
    await acceptInvitedRoles(trx, row.user_id);
    await revokeTokens(trx, row.user_id, ['access', 'reset', 'invite']);
    return row.user_id;
  });
  const user = await findUserById(ctx.db, userId);
  if (user) await forgetLoginFailures(ctx, user.email);
  return { message: SERVER_TEXT.passwordReset };
}

export async function currentUser(ctx: AppContext, userId: number) {
  const user = await findUserWithSchool(ctx.db, { id: userId });
  if (!user) throw new HttpError(404, SERVER_TEXT.notFound);
  return toCurrentUser(user, await findRoles(ctx.db, userId), user.schoolName);
}
