import type { BookableGroup } from '@parley/domain/booking';
import { describe, expect, it } from 'vitest';
import {
  currentBooking,
  formReady,
  freeLabel,
  initialPlaceForm,
  placeAction,
  placeSections,
} from './places-logic';
import { ALICE, BEN, booking, TEACHERS } from './test-fixtures';

const grid: BookableGroup[] = [
  {
    sectionId: 1,
    dateLabel: 'Fri 3 Jul 2026',
    teacherId: null,
    teacherName: null,
    subjects: [],
    location: 'Great hall',
    slots: [
      {
        id: 70,
        startsAt: 'a',
        endsAt: 'b',
        time: '18:00',
        endTime: '21:00',
        free: 0,
        capacity: 200,
        myBookingId: null,
        location: null,
      },
    ],
  },
];

describe('places (booking, ticketed and graduation events)', () => {
  it('lists slots per section; a full one is not selectable unless it is the booking being changed', () => {
    expect(placeSections(grid, null)[0]?.slots[0]).toMatchObject({
      selectable: false,
      mine: false,
      location: 'Great hall',
    });
    const mine = { ...booking(5, TEACHERS.smith, ALICE, '16:00'), slotId: 70 };
    expect(placeSections(grid, mine)[0]?.slots[0]).toMatchObject({ selectable: true, mine: true });
  });

  it('preselects the only free slot for a new booking', () => {
    const open = [{ ...grid[0], slots: [{ ...grid[0]?.slots[0], free: 3 }] }] as BookableGroup[];
    expect(initialPlaceForm(null, [0, 1, 2], placeSections(open, null))).toEqual({
      slotId: 70,
      guests: 0,
      gownSize: null,
    });
    expect(initialPlaceForm(null, [], placeSections(grid, null)).slotId).toBeNull();
  });

  it('finds the booking of the person booked for', () => {
    const bookings = [booking(1, TEACHERS.smith, ALICE, '16:00'), booking(2, TEACHERS.smith, BEN, '16:10')];
    expect(currentBooking(bookings, BEN)?.id).toBe(2);
    expect(
      currentBooking([{ ...(bookings[0] as (typeof bookings)[number]), status: 'cancelled' }], ALICE),
    ).toBeNull();
  });

  it('books a new place, changes with one call that also cancels, and saves only a gown size', () => {
    const current = { ...booking(9, TEACHERS.smith, ALICE, '16:00'), slotId: 70, guests: 2, gownSize: 'M' };
    expect(placeAction({ slotId: 70, guests: 1, gownSize: null }, null, ALICE)).toEqual({
      kind: 'book',
      items: [{ slotId: 70, studentId: ALICE, subjectId: null, guests: 1, gownSize: null }],
      cancelBookingIds: [],
    });
    expect(placeAction({ slotId: 70, guests: 3, gownSize: 'M' }, current, ALICE)).toMatchObject({
      kind: 'book',
      cancelBookingIds: [9],
    });
    expect(placeAction({ slotId: 70, guests: 2, gownSize: 'L' }, current, ALICE)).toEqual({
      kind: 'gown',
      bookingId: 9,
      gownSize: 'L',
    });
    expect(placeAction({ slotId: 70, guests: 2, gownSize: 'M' }, current, ALICE)).toEqual({ kind: 'none' });
    expect(placeAction({ slotId: null, guests: 0, gownSize: null }, null, ALICE)).toEqual({ kind: 'none' });
  });

  it('needs a gown size for a graduation, and says how many places are left', () => {
    expect(formReady({ slotId: 70, guests: 0, gownSize: null }, true)).toBe(false);
    expect(formReady({ slotId: 70, guests: 0, gownSize: 'S' }, true)).toBe(true);
    expect(formReady({ slotId: null, guests: 0, gownSize: null }, false)).toBe(false);
    expect([freeLabel(0), freeLabel(1), freeLabel(12)]).toEqual(['Full', '1 place left', '12 places left']);
  });
});
