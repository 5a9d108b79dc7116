import { messageResponse } from '@parley/domain/auth';
import {
  EVENT_MESSAGE_TYPES,
  type EventMessageType,
  MESSAGE_AUDIENCES,
  singleRecipientMessageRequest,
} from '@parley/domain/events';
import { idField, idParam } from '@parley/domain/fields';
import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { unprocessable } from '../../lib/http-error';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import { sendToOneRecipient, sendToRecipients } from '../events/event-messages.service';
import { sendInvite } from '../people/people.service';

// Spec §7 Messages: message-types/send carries either an invitation of the directory
// ({ messageTypeName: "sendTeacherInviteEmail", data: { userId } }) or an event message
// (?eventId=… { messageTypeName: "inviteToBook" | "reminder", audience: "all" | "notBooked" }).
const inviteMessages: Record<string, Role> = {
  sendTeacherInviteEmail: 'teacher',
  sendParentInviteEmail: 'parent',
  sendStudentInviteEmail: 'student',
  sendAdminInviteEmail: 'admin',
};

const isEventMessage = (name: string): name is EventMessageType =>
  (EVENT_MESSAGE_TYPES as readonly string[]).includes(name);

export function messageRoutes(api: Api, ctx: AppContext): void {
  const tags = ['messages'];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const security = [{ bearer: [] }];
  const school = (request: { session: Session | null }) => sessionOf(request).schoolId;
  const sentResponse = messageResponse.extend({ sent: z.number().optional() });

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
    (request) => {
      const { messageTypeName, data, audience } = request.body;
      const role = inviteMessages[messageTypeName];
      if (role) {
        if (!data) throw unprocessable(SERVER_TEXT.invalidInput, { 'data.userId': [VALIDATION.required] });
        return sendInvite(ctx, school(request), data.userId, role, actorOf(request, sessionOf(request)));
      }
      if (isEventMessage(messageTypeName)) {
        const eventId = request.query.eventId;
        if (!eventId) throw unprocessable(SERVER_TEXT.invalidInput, { eventId: [VALIDATION.required] });
        return sendToRecipients(
          ctx,
          school(request),
          eventId,
          messageTypeName,
          audience ?? 'all',
          actorOf(request, sessionOf(request)),
        );
      }
      throw unprocessable('Unknown message type.', { messageTypeName: ['Unknown message type.'] });
    },
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
      sendToOneRecipient(
        ctx,
        school(request),
        request.body.eventId,
        request.body.userId,
        request.body.messageTypeName,
        actorOf(request, sessionOf(request)),
      ),
  );
}
