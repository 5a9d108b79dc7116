import { DEFAULT_CAPACITY, EVENT_TEXT, type EventCreateRequest } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { unprocessable } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { newPublicCode } from '../../lib/tokens';
import { assertMayCreateEvents } from '../billing/billing.service';
import { findEventType } from './event-types.repository';
import * as repo from './events.repository';

// A new event (spec §4 New event): disabled, with its type's default capacity and a public code.

/**
 * Inserts an event with a fresh public code. Outside a transaction a collision (about 1 in 10^15) just
 * draws again; inside one (signup's sample events) it fails the transaction like any other error.
 */
export async function insertEventWithCode(
  db: Db,
  values: Omit<Parameters<typeof repo.insertEvent>[1], 'code'>,
  attempts = 3,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await repo.insertEvent(db, { ...values, code: newPublicCode() });
    } catch (error) {
      if (attempt >= attempts || !isUniqueViolation(error, 'events_code_key')) throw error;
    }
  }
}

export async function createEvent(ctx: AppContext, schoolId: number, body: EventCreateRequest) {
  await assertMayCreateEvents(ctx, schoolId);
  const type = await findEventType(ctx.db, schoolId, Number(body.eventTypeId));
  if (!type) {
    throw unprocessable(SERVER_TEXT.invalidInput, { eventTypeId: [EVENT_TEXT.unknownEventType] });
  }
  const id = await insertEventWithCode(ctx.db, {
    school_id: schoolId,
    event_type_id: type.id,
    name: body.name,
    // Disabled until the admin has set it up (spec §4: "Review settings and enable to allow bookings").
    status: 0,
    capacity: DEFAULT_CAPACITY[type.group_int],
    ...(body.scanOpensHoursBefore !== undefined && { scan_opens_hours_before: body.scanOpensHoursBefore }),
    ...(body.scanClosesHoursAfter !== undefined && { scan_closes_hours_after: body.scanClosesHoursAfter }),
  });
  return { id, message: EVENT_TEXT.created };
}
