import { SERVER_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { assertNotBreached } from '../../lib/breached-passwords';
import { badRequest, conflict, forbidden } from '../../lib/http-error';
import { hashPassword } from '../../lib/passwords';
import { mayMail } from '../../lib/rate-limit';
import type { SessionClient } from '../../lib/session-client';
import { enqueueMails } from '../../mail/outbox.repository';
import { invitationMail, roleAddedMail } from '../../mail/templates';
import { pushInvitation } from '../../push/push-messages';
import { findSchool } from '../accounts/accounts.repository';
import { startSession } from '../accounts/accounts.service';
import { consumeToken, findLiveToken, findUsedToken, revokeTokens } from '../tokens/tokens.repository';
import { mailNewLink } from '../tokens/tokens.service';
import {
  acceptInvitedRoles,
  createUser,
  findRoles,
  findUserByEmail,
  findUserById,
  grantRole,
  markRoleAccepted,
  pendingInvitedRoles,
  schoolOfEmail,
  setPassword,
  updateProfile,
} from '../users/users.repository';

export type Invitee = { email: string; firstName: string; lastName: string; role: Role };

/**
 * Invites a person into a role of the school. An email that already has an account in this school gets
 * the role added (one person, several roles); an email of another school is refused.
 * Runs inside the caller's transaction (db may be a trx), so bulk adds stay all-or-nothing.
 */
export async function inviteUser(
  ctx: AppContext,
  db: Db,
  schoolId: number,
  invitee: Invitee,
  options: { sendMail: boolean } = { sendMail: true },
): Promise<{ userId: number; created: boolean; roleAdded: boolean; hasAccount: boolean }> {
  // This school's account of that email (row-level security hides another school's) ...
  const existing = await findUserByEmail(db, invitee.email);
  const owner = existing ? existing.school_id : await schoolOfEmail(db, invitee.email);
  if (owner !== undefined && owner !== schoolId) {
    throw conflict(SERVER_TEXT.otherSchoolEmail, { email: [SERVER_TEXT.otherSchoolEmail] });
  }
  const user =
    existing ??
    (await createUser(db, {
      schoolId,
      email: invitee.email,
      firstName: invitee.firstName,
      lastName: invitee.lastName,
      passwordHash: null,
    }));
  // Someone removed earlier (kept, deactivated, for their bookings) comes back active; a deliberate
  // deactivation of a person who still holds a role is left to the admin.
  if (existing && existing.status !== 1 && (await findRoles(db, existing.id)).length === 0) {
    await updateProfile(db, existing.id, { status: 1 });
  }
  // An active account with a password has proved its mailbox and has a way in: the role is theirs at once,
  // and they are told so, with no password to set.
  const hasAccount = existing?.password_hash != null && existing.status === 1;
  const roleAdded = await grantRole(db, {
    userId: user.id,
    schoolId,
    role: invitee.role,
    accepted: hasAccount,
  });
  if (options.sendMail && roleAdded) {
    if (hasAccount) await mailRoleAdded(ctx, db, user.id, [invitee.role]);
    else await sendInvitation(ctx, db, user.id, invitee.role);
    if (existing)
      await pushInvitation(
        db,
        schoolId,
        user.id,
        (await findSchool(db, schoolId)).name,
        invitee.role,
        hasAccount,
      );
  }
  return { userId: user.id, created: !existing, roleAdded, hasAccount };
}

/**
 * A fresh invitation link for one role. When the school sends it, earlier links for the user stop working;
 * a resend the person asks for (anyone can, for any email) keeps them, so a flood of resends cannot spoil
 * the link already in the inbox.
 */
export async function sendInvitation(
  ctx: AppContext,
  db: Db,
  userId: number,
  role: Role,
  options: { keepEarlierLinks: boolean } = { keepEarlierLinks: false },
): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) return;
  const school = await findSchool(db, user.school_id);
  if (!options.keepEarlierLinks) await revokeTokens(db, userId, ['invite']);
  await mailNewLink(ctx, db, { ...user, school }, { kind: 'invite', role }, (who, token) =>
    invitationMail(who, role, token),
  );
}

/** Tells a person with an account that the school gave them these roles too. */
async function mailRoleAdded(ctx: AppContext, db: Db, userId: number, roles: Role[]) {
  const user = await findUserById(db, userId);
  if (!user) return;
  const school = await findSchool(db, user.school_id);
  await enqueueMails(db, [
    roleAddedMail(
      {
        product: ctx.config.appName,
        appUrl: ctx.config.appUrl,
        schoolName: school.name,
        schoolId: school.id,
        to: user.email,
        firstName: user.first_name,
      },
      roles,
    ),
  ]);
}

const invalidInvitation = () => badRequest(SERVER_TEXT.tokenInvalid, { token: [SERVER_TEXT.tokenInvalid] });

/** What an invitation page shows; a person who already has a password is done at this point. */
export async function readInvitation(ctx: AppContext, role: Role, token: string | undefined) {
  if (!token) throw badRequest(SERVER_TEXT.tokenMissing, { token: [SERVER_TEXT.tokenMissing] });
  const live = await findLiveToken(ctx.db, token, 'invite');
  if (!live) return usedInvitation(ctx, role, token);
  if (live.role !== role) throw invalidInvitation();
  const user = await findUserById(ctx.db, live.user_id);
  if (!user) throw invalidInvitation();
  const school = await findSchool(ctx.db, user.school_id);
  const needsPassword = user.password_hash === null;
  if (!needsPassword) {
    await ctx.db.transaction().execute(async (trx) => {
      if (await consumeToken(trx, token, 'invite')) await markRoleAccepted(trx, user.id, role);
    });
  }
  return {
    message: needsPassword ? SERVER_TEXT.invitationValid : SERVER_TEXT.invitationAccepted,
    email: user.email,
    firstName: user.first_name,
    role,
    subscriberName: school.name,
    needsPassword,
  };
}

/**
 * A link already used, by someone who now has a password and the role: "already accepted, log in", not
 * "invalid" (they open the old mail again). Any other dead link stays invalid.
 */
async function usedInvitation(ctx: AppContext, role: Role, token: string) {
  const used = await findUsedToken(ctx.db, token, 'invite');
  const user = used?.role === role ? await findUserById(ctx.db, used.user_id) : undefined;
  if (!user || user.password_hash === null || user.status !== 1) throw invalidInvitation();
  if (!(await findRoles(ctx.db, user.id)).includes(role)) throw invalidInvitation();
  const school = await findSchool(ctx.db, user.school_id);
  return {
    message: SERVER_TEXT.invitationUsed,
    email: user.email,
    firstName: user.first_name,
    role,
    subscriberName: school.name,
    needsPassword: false,
  };
}

/** Sets the password from an invitation link (for the roles allowed on that endpoint) and signs in. */
export async function acceptWithPassword(
  ctx: AppContext,
  roles: Role[],
  token: string,
  password: string,
  client?: SessionClient,
) {
  assertNotBreached(password);
  const passwordHash = await hashPassword(password);
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const live = await findLiveToken(trx, token, 'invite');
    if (!live?.role || !roles.includes(live.role as Role)) throw invalidInvitation();
    const user = await findUserById(trx, live.user_id);
    if (!user) throw invalidInvitation();
    if (user.status !== 1) throw forbidden(SERVER_TEXT.accountInactive);
    // An invitation never replaces a password someone already has: that is what a reset is for.
    if (user.password_hash !== null) throw conflict(SERVER_TEXT.invitationAccepted);
    const used = await consumeToken(trx, token, 'invite');
    if (!used) throw invalidInvitation();
    await setPassword(trx, used.user_id, passwordHash);
    // Every role the school invited this person to is accepted by the one password they set, and so every
    // other invitation link of theirs is done.
    await acceptInvitedRoles(trx, used.user_id);
    await revokeTokens(trx, used.user_id, ['invite']);
    return used.user_id;
  });
  return startSession(ctx, userId, SERVER_TEXT.passwordSet, client);
}

/**
 * Same answer, in the same time, whether or not an invitation is waiting: the one lookup every request
 * makes is done here, the rest after the answer (decision 010).
 */
export async function resendInvitation(ctx: AppContext, email: string, ip: string) {
  if (await mayMail(ctx, ip, email)) {
    const user = await findUserByEmail(ctx.db, email);
    if (user && user.status === 1) ctx.background.run('resend invitation', () => resendPending(ctx, user.id));
  }
  return { message: SERVER_TEXT.invitationResent };
}

async function resendPending(ctx: AppContext, userId: number) {
  const [role] = await pendingInvitedRoles(ctx.db, userId);
  if (!role) return;
  await ctx.db
    .transaction()
    .execute((trx) => sendInvitation(ctx, trx, userId, role, { keepEarlierLinks: true }));
}
