import { messageResponse } from '@parley/domain/auth';
import { pushKeyResponse, pushSubscriptionRequest, removePushSubscriptionRequest } from '@parley/domain/push';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import type { PushGuard } from '../../push/push-guard';
import type { VapidKeys } from '../../push/vapid';
import * as push from './push.service';

// Web Push (issue 12): the VAPID key, and a browser's subscription for the signed-in user.
export function pushRoutes(
  api: Api,
  ctx: AppContext,
  keys: () => Promise<VapidKeys>,
  guard: PushGuard,
): void {
  const tags = ['push'];
  const signedIn = { onRequest: requireSession(ctx.db) };
  const security = [{ bearer: [] }];

  api.get('/site/push-key', { schema: { tags, response: { 200: pushKeyResponse, ...errorResponses } } }, () =>
    push.pushKey(keys),
  );

  api.post(
    '/user/push-subscription',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: pushSubscriptionRequest,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request) => push.subscribe(ctx, guard, sessionOf(request), request.body, request.headers['user-agent']),
  );

  api.post(
    '/user/remove-push-subscription',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: removePushSubscriptionRequest,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request) => push.unsubscribe(ctx, sessionOf(request), request.body.endpoint),
  );
}
