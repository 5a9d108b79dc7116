import { SERVER_TEXT } from '@parley/domain/messages';
import type { SecondFactorRequest } from '@parley/domain/two-factor';
import type { AppContext } from '../../context';
import { type DeviceCookies, rememberDevice } from '../../lib/device-cookie';
import { badRequest, forbidden, unprocessable } from '../../lib/http-error';
import { admitSecondFactor, loginFailed, loginSucceeded, secondFactorSucceeded } from '../../lib/rate-limit';
import type { SessionClient } from '../../lib/session-client';
import { type SecondFactorOutcome, useSecondFactor } from '../profile/two-factor.service';
import { consumeToken, findLiveToken } from '../tokens/tokens.repository';
import { findUserById } from '../users/users.repository';
import { startSession } from './accounts.service';

const expired = () => badRequest(SERVER_TEXT.challengeExpired, { challenge: [SERVER_TEXT.challengeExpired] });

/**
 * The second step of a login with two-factor sign-in on (decision 015): the challenge of the first step
 * and a TOTP or recovery code. A wrong code leaves the challenge alive for another try (throttled per
 * account like a password); the right one spends the challenge and the code together, then signs in.
 */
export async function completeSecondFactor(
  ctx: AppContext,
  body: SecondFactorRequest,
  client: SessionClient,
  cookies: DeviceCookies,
) {
  const live = await findLiveToken(ctx.db, body.challenge, 'challenge');
  if (!live) throw expired();
  const owner = { userId: live.user_id, schoolId: live.school_id };
  const { onTrustedDevice } = await admitSecondFactor(ctx, client.ip, owner.userId, body.challenge);
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<SecondFactorOutcome> => {
    const result = await useSecondFactor(ctx, trx, owner, body.code);
    // Spent only with a right code, and only once: two requests racing with one challenge get one session.
    if (result && !(await consumeToken(trx, body.challenge, 'challenge'))) throw expired();
    return result;
  });
  if (!outcome) {
    await loginFailed(ctx, client.ip, onTrustedDevice);
    throw unprocessable(SERVER_TEXT.secondFactorWrong, { code: [SERVER_TEXT.secondFactorWrong] });
  }
  const user = await findUserById(ctx.db, owner.userId);
  if (user?.status !== 1) throw forbidden(SERVER_TEXT.accountInactive);
  await Promise.all([
    secondFactorSucceeded(ctx, owner.userId),
    loginSucceeded(ctx, { ip: client.ip, email: user.email, device: null }),
  ]);
  rememberDevice(cookies, user.email); // the whole sign-in has succeeded: this browser is known (decision 033)
  const message =
    outcome.kind === 'recovery' ? SERVER_TEXT.signedInWithRecoveryCode(outcome.left) : 'Logged in.';
  return startSession(ctx, owner.userId, message, client);
}
