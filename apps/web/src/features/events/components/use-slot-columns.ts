import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { EventDetail } from '@parley/domain/events';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { SlotEvent } from '../admin-booking';
import { eventSlotsQuery } from '../api';

/**
 * The slot grid's columns a dialog chooses from: on a parent-teacher evening one teacher's (none until a
 * teacher is chosen), else every column (one a section). Asked for only while the dialog is open.
 */
export function useSlotColumns(
  event: EventDetail,
  teacherId: number | null,
  open: boolean,
): SlotEvent & { loading: boolean } {
  const byTeacher = event.eventTypeGroupInt === EVENT_GROUPS.parentTeacher;
  const query = useQuery({
    ...eventSlotsQuery(event.id, byTeacher ? { teacherIds: teacherId ? [teacherId] : [] } : {}),
    enabled: open && (!byTeacher || teacherId !== null),
  });
  // isLoading, not isPending: a query not asked (no teacher to ask for) is pending for ever, not loading.
  return useMemo(
    () => ({ slots: query.data?.items ?? [], timeZone: event.timeZone, loading: query.isLoading }),
    [query.data, query.isLoading, event.timeZone],
  );
}
