// The peek of a booking change (decision 009): a family's booking of a slot this process last saw full
// (full-slot-hints.ts, half the attempts in a rush) first reads without locks. When a slot it asks for is
// still full and nothing else stands in the way, that read carries the 409's answer, and no transaction
// starts; otherwise the transaction checks everything under its locks.
import { BOOKING_TEXT } from '@parley/domain/booking';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-error';
import type { Booker } from './booker';
import * as repo from './booking.repository';
import type { Party } from './booking.service';
import { lostRaceAnswer } from './change-answer';
import { type Change, passesChecks, withContext } from './change-rules';
import { fullSlotHintsOf } from './full-slot-hints';

/** The 409 of a change whose slot is still full, read without locks; undefined when the change goes on. */
export async function peekFullSlots(
  ctx: AppContext,
  booker: Booker,
  eventId: number,
  party: Party,
  change: Change,
  slotIds: number[],
): Promise<HttpError | undefined> {
  const hints = fullSlotHintsOf(ctx.db);
  if (!hints.anyFull(slotIds)) return undefined;
  const read = await repo.peekEventAndParty(ctx.db, booker.schoolId, eventId, party, slotIds);
  if (!read) return undefined;
  hints.saw(slotIds, read.fullSlots);
  if (read.fullSlots.length === 0) return undefined;
  const peeked = await withContext(ctx, ctx.db, booker.schoolId, eventId, party, read);
  if (!peeked || !passesChecks(booker, party, change, peeked)) return undefined;
  return new HttpError(
    409,
    BOOKING_TEXT.slotTaken,
    undefined,
    await lostRaceAnswer(ctx.db, peeked.event, party, change.items, read.lostRace),
  );
}
