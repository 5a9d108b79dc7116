import type { SlotGroup, SlotItem } from '@parley/domain/events';
import { formatLocalTime } from '@parley/domain/time-zone';

// The slot grid of a section: one row per start time, one column per teacher (or the section's own
// series), times in the school's zone.

export type GridCell = SlotItem | null;
export type SlotGridModel = {
  columns: Array<{ key: string; title: string | null; location: string | null }>;
  rows: Array<{ startsAt: string; time: string; cells: GridCell[] }>;
};

export function slotGridModel(groups: readonly SlotGroup[], timeZone: string): SlotGridModel {
  const starts = [...new Set(groups.flatMap((group) => group.slots.map((slot) => slot.startsAt)))].sort(
    (a, b) => new Date(a).getTime() - new Date(b).getTime(),
  );
  const byGroup = groups.map((group) => new Map(group.slots.map((slot) => [slot.startsAt, slot])));
  return {
    columns: groups.map((group) => ({
      key: `${group.sectionId}-${group.teacherId ?? 'all'}`,
      title: group.teacherName,
      location: group.location,
    })),
    rows: starts.map((startsAt) => ({
      startsAt,
      time: formatLocalTime(new Date(startsAt), timeZone),
      cells: byGroup.map((slots) => slots.get(startsAt) ?? null),
    })),
  };
}

export type CellState = 'free' | 'partly' | 'full';

export function cellState(slot: SlotItem): CellState {
  if (slot.bookedCount <= 0) return 'free';
  return slot.bookedCount >= slot.capacity ? 'full' : 'partly';
}
