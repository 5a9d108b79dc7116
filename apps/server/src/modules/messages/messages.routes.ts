import { messageResponse } from '@parley/domain/auth';
import { MESSAGE_AUDIENCES, singleRecipientMessageRequest } from '@parley/domain/events';
import { idField, idParam } from '@parley/domain/fields';
import { jobProgress } from '@parley/domain/jobs';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import { sendMessage, sendToSingleRecipient } from './messages.service';

// Spec §7 Messages: invitations of the directory and event messages (messages.service.ts).
export function messageRoutes(api: Api, ctx: AppContext): void {
  const tags = ['messages'];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const security = [{ bearer: [] }];
  const school = (request: { session: Session | null }) => sessionOf(request).schoolId;
  // A message to more recipients than one request handles names the job that sends the rest (decision 037).
  const sentResponse = messageResponse.extend({ sent: z.number().optional(), job: jobProgress.optional() });

  api.post(
    '/message-types/send',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: z.strictObject({ eventId: idParam.optional() }),
        body: z.strictObject({
          messageTypeName: z.string().max(60),
          data: z.strictObject({ userId: idField }).optional(),
          audience: z.enum(MESSAGE_AUDIENCES).optional(),
        }),
        response: { 200: sentResponse, ...errorResponses },
      },
    },
    (request) =>
      sendMessage(ctx, school(request), actorOf(request, sessionOf(request)), {
        ...request.body,
        eventId: request.query.eventId,
      }),
  );

  api.post(
    '/message-types/send-to-single-recipient',
    {
      ...admin,
      schema: {
        tags,
        security,
        body: singleRecipientMessageRequest,
        response: { 200: sentResponse, ...errorResponses },
      },
    },
    (request) =>
      sendToSingleRecipient(ctx, school(request), actorOf(request, sessionOf(request)), request.body),
  );
}
