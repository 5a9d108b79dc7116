import type { messageResponse } from '@parley/domain/auth';
import type { PushSubscriptionRequest } from '@parley/domain/push';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { asSystem } from '../../db/scope';
import { conflict, unprocessable } from '../../lib/http-error';
import { deleteOwnSubscription, upsertSubscription } from '../../push/push.repository';
import type { PushGuard } from '../../push/push-guard';
import type { VapidKeys } from '../../push/vapid';

type Session = { userId: number; schoolId: number };
type Message = z.infer<typeof messageResponse>;

export async function pushKey(keys: () => Promise<VapidKeys>) {
  return { publicKey: (await keys()).publicKey };
}

/** Refused without a word of whose the endpoint is. */
const TAKEN =
  'This push endpoint belongs to another account. Turn push notifications off and on again in this browser.';

/**
 * Registers this browser's subscription for the caller: an endpoint of a push service the guard allows
 * (PUSH_SERVICE_HOSTS, https), not another user's (unless with its keys: the same browser), at most five
 * per user (the oldest goes).
 */
export async function subscribe(
  ctx: AppContext,
  guard: PushGuard,
  session: Session,
  body: PushSubscriptionRequest,
  userAgent: string | undefined,
): Promise<Message> {
  const problem = guard.endpointProblem(body.endpoint);
  if (problem) throw unprocessable(problem, { endpoint: [problem] });
  // The endpoint may be held by someone in another school (a shared device): the move is across the wall.
  const outcome = await asSystem(() =>
    upsertSubscription(ctx.db, {
      schoolId: session.schoolId,
      userId: session.userId,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      userAgent: userAgent?.slice(0, 500) ?? null,
    }),
  );
  if (outcome === 'taken') throw conflict(TAKEN, { endpoint: [TAKEN] });
  return { message: 'Push notifications are on for this device.' };
}

export async function unsubscribe(ctx: AppContext, session: Session, endpoint: string): Promise<Message> {
  await deleteOwnSubscription(ctx.db, session.schoolId, session.userId, endpoint);
  return { message: 'Push notifications are off for this device.' };
}
