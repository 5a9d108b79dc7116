import type { BookableGroup } from '@parley/domain/booking';
import { describe, expect, it } from 'vitest';
import { withFreshColumns } from './conflict-grid';

const column = (teacherId: number, free: number): BookableGroup => ({
  sectionId: 1,
  dateLabel: 'Thu 12 Mar 2026',
  teacherId,
  teacherName: `Teacher ${teacherId}`,
  subjects: [],
  location: null,
  slots: [
    {
      id: teacherId * 10,
      startsAt: '2026-03-12T16:00:00.000Z',
      endsAt: '2026-03-12T16:10:00.000Z',
      time: '16:00',
      endTime: '16:10',
      free,
      capacity: 1,
      myBookingId: null,
      location: null,
    },
  ],
});

describe('a conflict’s fresh columns', () => {
  it('replace the same columns and keep the others of the grid in hand', () => {
    const grid = [column(1, 1), column(2, 1), column(3, 1)];
    const merged = withFreshColumns(grid, [column(2, 0)]);
    expect(merged.map((group) => [group.teacherId, group.slots[0]?.free])).toEqual([
      [1, 1],
      [2, 0],
      [3, 1],
    ]);
  });

  it('are the grid when there is none in hand', () => {
    expect(withFreshColumns(undefined, [column(2, 0)])).toEqual([column(2, 0)]);
    expect(withFreshColumns([], [column(2, 0)])).toEqual([column(2, 0)]);
  });
});
