import type { MyBooking, ScheduleRow } from '@parley/domain/booking';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import {
  bookingFacts,
  canChangeBookings,
  eventLocations,
  liveBookings,
  loadFailedText,
  resolveEventId,
  SCHEDULE_REFRESH_MS,
  scheduleLines,
  storedEventId,
  updatedLabel,
} from './details-logic';
import { NO_ANSWER_TEXT } from './my-events-text';

const row = (slotId: number, time: string, bookings: ScheduleRow['bookings'] = []): ScheduleRow => ({
  slotId,
  sectionId: 1,
  startsAt: `2026-03-12T${time}:00.000Z`,
  endsAt: `2026-03-12T${time}:00.000Z`,
  time,
  endTime: `${time.slice(0, 3)}${String(Number(time.slice(3)) + 10).padStart(2, '0')}`,
  location: 'Room 4',
  bookings,
});

const booking = (over: Partial<MyBooking> = {}): MyBooking => ({
  id: 1,
  slotId: 10,
  sectionId: 1,
  startsAt: '2026-03-12T16:00:00.000Z',
  endsAt: '2026-03-12T16:10:00.000Z',
  timeLabel: 'Thu 12 Mar 2026, 16:00 – 16:10',
  time: '16:00',
  endTime: '16:10',
  teacherId: 3,
  teacherName: 'Mr Brown',
  videoUrl: null,
  studentId: 8,
  studentName: 'Sam Lee',
  parentId: 9,
  parentName: 'Pat Lee',
  subjectId: 2,
  subjectName: 'Maths',
  location: 'Room 4',
  guests: 0,
  gownSize: null,
  status: 'booked',
  confirmed: true,
  ...over,
});

describe('which event a details page shows', () => {
  it('takes the path id, else ?eventId, else the stored current event', () => {
    expect(resolveEventId('12', null, { id: 3 })).toBe(12);
    expect(resolveEventId(undefined, '7', { id: 3 })).toBe(7);
    expect(resolveEventId(undefined, null, { id: 3, name: 'Spring' })).toBe(3);
    expect(resolveEventId(undefined, null, null)).toBeNull();
  });

  it('refuses ids that are not positive whole numbers (no fall-through to the stored one)', () => {
    expect(resolveEventId('abc', null, 3)).toBeNull();
    expect(resolveEventId(undefined, '0', 3)).toBeNull();
    expect(resolveEventId(undefined, '-4', 3)).toBeNull();
    expect(resolveEventId(undefined, '2.5', 3)).toBeNull();
  });

  it('reads a stored current event as an id or an object with one', () => {
    expect(storedEventId(5)).toBe(5);
    expect(storedEventId('5')).toBe(5);
    expect(storedEventId({ id: 5 })).toBe(5);
    expect(storedEventId({ id: 'x' })).toBeNull();
    expect(storedEventId([5])).toBeNull();
  });
});

describe('teacher schedule', () => {
  it('refreshes every 15 seconds', () => {
    expect(SCHEDULE_REFRESH_MS).toBe(15_000);
  });

  it('makes one line per booking and one muted line per free slot', () => {
    const lines = scheduleLines([
      row(1, '16:00', [
        {
          bookingId: 11,
          parentName: 'Pat Lee',
          parentEmail: null,
          studentName: 'Sam Lee',
          subjectName: 'Maths',
        },
      ]),
      row(2, '16:10'),
      row(3, '16:20', [
        { bookingId: 12, parentName: 'Ann Day', parentEmail: null, studentName: 'Jo Day', subjectName: null },
        { bookingId: 13, parentName: 'Bo Fay', parentEmail: null, studentName: 'Al Fay', subjectName: null },
      ]),
    ]);
    expect(lines.map((line) => [line.key, line.free, line.family, line.firstOfSlot])).toEqual([
      ['booking-11', false, 'Pat Lee', true],
      ['slot-2', true, null, true],
      ['booking-12', false, 'Ann Day', true],
      ['booking-13', false, 'Bo Fay', false],
    ]);
    expect(lines[0]).toMatchObject({ time: '16:00', endTime: '16:10', child: 'Sam Lee', subject: 'Maths' });
  });

  it('says when it was read as "Updated hh:mm:ss" on the school’s clock', () => {
    expect(updatedLabel('2026-03-12T09:05:07.000Z', 'Europe/London')).toBe('Updated 09:05:07');
    expect(updatedLabel('2026-07-12T09:05:07.000Z', 'Europe/London')).toBe('Updated 10:05:07');
    expect(updatedLabel('2026-07-12T09:05:07.000Z', 'America/New_York')).toBe('Updated 05:05:07');
    expect(updatedLabel('nonsense', 'Europe/London')).toBeNull();
  });
});

describe('my bookings', () => {
  it('lists live bookings in time order', () => {
    const list = liveBookings([
      booking({ id: 3, startsAt: '2026-03-12T17:00:00.000Z' }),
      booking({ id: 2, status: 'cancelled' }),
      booking({ id: 1, startsAt: '2026-03-12T16:00:00.000Z' }),
    ]);
    expect(list.map((item) => item.id)).toEqual([1, 3]);
  });

  it('offers change and cancel only while bookings are open', () => {
    expect(canChangeBookings({ isOpen: true })).toBe(true);
    expect(canChangeBookings({ isOpen: false })).toBe(false);
  });

  it('names each place once', () => {
    const section = (location: string | null) => ({
      id: 1,
      date: '2026-03-12',
      start: '16:00',
      end: '19:00',
      startsAt: '',
      endsAt: '',
      location,
      label: '',
    });
    expect(
      eventLocations({ sections: [section('Hall'), section(null), section(' Hall '), section('Gym')] }),
    ).toEqual(['Hall', 'Gym']);
  });

  it('shows who, what and where, leaving out what is empty', () => {
    expect(bookingFacts(booking())).toEqual([
      { label: 'Teacher', value: 'Mr Brown' },
      { label: 'Child', value: 'Sam Lee' },
      { label: 'Subject', value: 'Maths' },
      { label: 'Location', value: 'Room 4' },
    ]);
    expect(
      bookingFacts(
        booking({ teacherName: null, subjectName: null, location: null, guests: 2, gownSize: 'M' }),
      ),
    ).toEqual([
      { label: 'Child', value: 'Sam Lee' },
      { label: 'Guests', value: '2' },
      { label: 'Gown', value: 'M' },
    ]);
  });
});

describe('a details page that cannot load', () => {
  it('says "you are offline" when no answer came, else the server\'s message, else its own text', () => {
    expect(
      loadFailedText(new ApiError(0, 'No response from the server'), 'Could not load your bookings.'),
    ).toBe(NO_ANSWER_TEXT);
    expect(loadFailedText(new ApiError(404, 'x', { message: 'Event not found.' }), 'f')).toBe(
      'Event not found.',
    );
    expect(loadFailedText(new ApiError(500, 'x'), 'Could not load your bookings.')).toBe(
      'Could not load your bookings.',
    );
  });
});
