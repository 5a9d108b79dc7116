import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { Db } from '../../db/database';
import * as repo from './booking.repository';
import { type Party, partyGrid } from './booking.service';
import { gridView, myBookingView } from './booking-views';
import type { ChangeItem } from './change-rules';
import { slotLabelsOf } from './slot-labels';

/**
 * What a family that lost (a race or a rule) chooses again from: at a parent-teacher evening the columns
 * of the teachers it asked for and of those it has booked (their places read already by the peek, or one
 * statement compiled once), labelled from what this process keeps (slot-labels.ts), with its bookings when
 * it holds any (a statement of their own); elsewhere the event's grid.
 */
export async function lostRaceAnswer(
  db: Db,
  event: repo.BookingEventRow,
  party: Party,
  items: ChangeItem[],
  read?: repo.LostRacePlaces,
) {
  if (event.group_int !== EVENT_GROUPS.parentTeacher) return partyGrid(db, event, party, undefined, 'skip');
  const slotIds = [...new Set(items.map((item) => item.slotId))];
  const { places, holdsBookings } =
    read ?? (await repo.lostRacePlaces(db, event.school_id, event.id, party, slotIds));
  const mine = holdsBookings ? await repo.partyBookings(db, event.school_id, event.id, party) : [];
  const slots = await slotLabelsOf(db).labelled(event.id, places, (only) =>
    repo.slotLabels(db, event.school_id, event.id, only),
  );
  return {
    grid: gridView(slots, mine, [], event.timezone),
    bookings: mine.map((row) => myBookingView(row, event.timezone)),
  };
}
