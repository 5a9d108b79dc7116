import type { messageResponse } from '@parley/domain/auth';
import type { PushSubscriptionRequest } from '@parley/domain/push';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { asSystem } from '../../db/scope';
import { unprocessable } from '../../lib/http-error';
import { deleteOwnSubscription, upsertSubscription } from '../../push/push.repository';
import type { VapidKeys } from '../../push/vapid';

type Session = { userId: number; schoolId: number };
type Message = z.infer<typeof messageResponse>;

export async function pushKey(keys: () => Promise<VapidKeys>) {
  return { publicKey: (await keys()).publicKey };
}

/** Push services speak HTTPS; plain HTTP only outside production (a test's local push endpoint). */
function assertEndpoint(ctx: AppContext, endpoint: string) {
  const secure = endpoint.startsWith('https://');
  if (!secure && (ctx.config.env === 'production' || !endpoint.startsWith('http://'))) {
    throw unprocessable('Must be an https:// push endpoint', {
      endpoint: ['Must be an https:// push endpoint'],
    });
  }
}

export async function subscribe(
  ctx: AppContext,
  session: Session,
  body: PushSubscriptionRequest,
  userAgent: string | undefined,
): Promise<Message> {
  assertEndpoint(ctx, body.endpoint);
  // The endpoint may be held by someone in another school (a shared device): the move is across the wall.
  await asSystem(() =>
    upsertSubscription(ctx.db, {
      schoolId: session.schoolId,
      userId: session.userId,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      userAgent: userAgent?.slice(0, 500) ?? null,
    }),
  );
  return { message: 'Push notifications are on for this device.' };
}

export async function unsubscribe(ctx: AppContext, session: Session, endpoint: string): Promise<Message> {
  await deleteOwnSubscription(ctx.db, session.schoolId, session.userId, endpoint);
  return { message: 'Push notifications are off for this device.' };
}
