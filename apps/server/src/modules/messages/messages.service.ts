import { EVENT_MESSAGE_TYPES, type EventMessageType, type MESSAGE_AUDIENCES } from '@parley/domain/events';
import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { unprocessable } from '../../lib/http-error';
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

export type MessageRequest = {
  messageTypeName: string;
  data?: { userId: number } | undefined;
  audience?: (typeof MESSAGE_AUDIENCES)[number] | undefined;
  eventId?: number | undefined;
};

/** One message of either kind, by its type name; a missing field is a 422 naming it. */
export function sendMessage(ctx: AppContext, schoolId: number, actor: Actor, message: MessageRequest) {
  const role = inviteMessages[message.messageTypeName];
  if (role) {
    if (!message.data)
      throw unprocessable(SERVER_TEXT.invalidInput, { 'data.userId': [VALIDATION.required] });
    return sendInvite(ctx, schoolId, message.data.userId, role, actor);
  }
  if (isEventMessage(message.messageTypeName)) {
    if (!message.eventId) throw unprocessable(SERVER_TEXT.invalidInput, { eventId: [VALIDATION.required] });
    return sendToRecipients(
      ctx,
      schoolId,
      message.eventId,
      message.messageTypeName,
      message.audience ?? 'all',
      actor,
    );
  }
  throw unprocessable('Unknown message type.', { messageTypeName: ['Unknown message type.'] });
}

/** An event message to one of its recipients. */
export function sendToSingleRecipient(
  ctx: AppContext,
  schoolId: number,
  actor: Actor,
  message: { eventId: number; userId: number; messageTypeName: Parameters<typeof sendToOneRecipient>[4] },
) {
  return sendToOneRecipient(ctx, schoolId, message.eventId, message.userId, message.messageTypeName, actor);
}
