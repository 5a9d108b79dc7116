import type { BookableGroup } from '@parley/domain/booking';

const columnOf = (group: BookableGroup) => `${group.sectionId}:${group.teacherId}`;

/**
 * A conflict's fresh columns (the teachers of the slots asked for and those booked) in place of the same
 * columns of the grid in hand: the other teachers' columns stay until the grid's next read.
 */
export function withFreshColumns(
  grid: readonly BookableGroup[] | undefined,
  fresh: readonly BookableGroup[],
): BookableGroup[] {
  if (!grid || grid.length === 0) return [...fresh];
  const byColumn = new Map(fresh.map((group) => [columnOf(group), group]));
  return grid.map((group) => byColumn.get(columnOf(group)) ?? group);
}
