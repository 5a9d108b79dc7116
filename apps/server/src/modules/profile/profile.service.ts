import { SERVER_TEXT } from '@parley/domain/messages';
import { type DeviceTokenRequest, deviceTokenChannel } from '@parley/domain/push';
import type { ChangePasswordRequest, ProfileUpdate, SettingsUpdate } from '@parley/domain/school';
import { withSettingsDefaults } from '@parley/domain/settings-defaults';
import type { AppContext } from '../../context';
import { asSystem } from '../../db/scope';
import type { Actor } from '../../lib/actor';
import { assertNotBreached } from '../../lib/breached-passwords';
import { forbidden, notFound, unprocessable } from '../../lib/http-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken } from '../../lib/tokens';
import { upsertDeviceSubscription } from '../../push/push.repository';
import { currentUser } from '../accounts/accounts.service';
import { recordAudit } from '../audit/audit.service';
import { personUpdateEntry } from '../audit/audit-entries';
import { revokeOtherAccessTokens } from '../tokens/tokens.repository';
import { findUserById, setPassword, updateProfile, updateSettingsJson } from '../users/users.repository';

type Session = { userId: number; schoolId: number; roles: string[]; token: string };

/** A user reads and edits their own record; an admin may read and edit anyone's in the school. */
async function assertMayAccess(ctx: AppContext, session: Session, userId: number) {
  const target = await findUserById(ctx.db, userId);
  if (!target || target.school_id !== session.schoolId) throw notFound(SERVER_TEXT.notFound);
  if (userId !== session.userId && !session.roles.includes('admin')) throw forbidden(SERVER_TEXT.forbidden);
  return target;
}

export async function viewUser(ctx: AppContext, session: Session, userId: number) {
  await assertMayAccess(ctx, session, userId);
  return currentUser(ctx, userId);
}

/** An admin's edit of someone else is recorded in the audit trail (one's own is not). */
export async function updateUser(
  ctx: AppContext,
  session: Session,
  userId: number,
  body: ProfileUpdate,
  actor: Actor,
) {
  const before = await assertMayAccess(ctx, session, userId);
  await ctx.db.transaction().execute(async (trx) => {
    await updateProfile(trx, userId, {
      ...(body.title !== undefined && { title: body.title }),
      ...(body.firstName !== undefined && { first_name: body.firstName }),
      ...(body.lastName !== undefined && { last_name: body.lastName }),
      ...(body.videoConferenceUrl !== undefined && { video_conference_url: body.videoConferenceUrl }),
    });
    await recordAudit(trx, actor, personUpdateEntry(before, body));
  });
  return currentUser(ctx, userId);
}

/** Changing the password keeps this session and ends every other one. */
export async function changePassword(ctx: AppContext, session: Session, body: ChangePasswordRequest) {
  const user = await findUserById(ctx.db, session.userId);
  if (!user || !(await verifyPassword(user.password_hash, body.currentPassword))) {
    const text = SERVER_TEXT.wrongPassword;
    throw unprocessable(text, { currentPassword: [text] });
  }
  assertNotBreached(body.password);
  const passwordHash = await hashPassword(body.password);
  await ctx.db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, passwordHash);
    await revokeOtherAccessTokens(trx, user.id, hashToken(session.token));
  });
  return { message: 'Your password has been changed.' };
}

export async function settings(ctx: AppContext, userId: number) {
  const user = await findUserById(ctx.db, userId);
  return { groupedSettings: withSettingsDefaults(user?.settings ?? {}) };
}

export async function updateSettings(ctx: AppContext, userId: number, body: SettingsUpdate) {
  const user = await findUserById(ctx.db, userId);
  const current = withSettingsDefaults(user?.settings ?? {});
  const next = {
    notifications: { ...current.notifications, ...body.notifications },
    display: { ...current.display, ...body.display },
    push: { ...current.push, ...body.push },
  };
  await updateSettingsJson(ctx.db, userId, next);
  return { groupedSettings: next };
}

const NOT_A_TOKEN = 'Must be the push token the phone gave the app';

/**
 * The native app's push token (spec §7 Device): kept on the account, as the spec's current user shows it,
 * and as the phone's subscription to the push outbox (FCM or APNs), the caller's from now on: a phone
 * signed in as someone else now (a shared family phone) gets that user's pushes only.
 */
export async function registerDeviceToken(
  ctx: AppContext,
  session: { userId: number; schoolId: number },
  body: DeviceTokenRequest,
) {
  const channel = deviceTokenChannel(body);
  if (!channel) throw unprocessable(NOT_A_TOKEN, { deviceToken: [NOT_A_TOKEN] });
  // The token may be held by someone in another school (the phone's last user): moved across the wall,
  // in a transaction of the system scope of its own.
  await asSystem(() =>
    upsertDeviceSubscription(ctx.db, {
      schoolId: session.schoolId,
      userId: session.userId,
      channel,
      token: body.deviceToken,
    }),
  );
  await updateProfile(ctx.db, session.userId, { device_token: body.deviceToken });
  return { message: 'Device registered.' };
}
