import { describe, expect, it } from 'vitest';
import type { BookingEventRow, PartyBookingRow } from '../modules/booking/booking.repository';
import { bookingChangePushes } from './push-messages';

// A teacher's notice of a booking change (issue 36, point 3): one per teacher per change, naming all it did.

const event = {
  id: 7,
  name: 'Spring consultations',
  code: 'abc',
  group_int: 1,
  timezone: 'Europe/London',
  booking_notifications: true,
} as unknown as BookingEventRow;

const booking = (id: number, startsAt: string, studentId: number) =>
  ({
    id,
    parent_id: 1,
    student_id: studentId,
    teacher_id: 9,
    teacher_settings: {},
    starts_at: new Date(startsAt),
    ends_at: new Date(new Date(startsAt).getTime() + 600_000),
  }) as unknown as PartyBookingRow;

const toTeacher = (pushes: ReturnType<typeof bookingChangePushes>) =>
  pushes
    .filter((push) => push.userIds.includes(9) && push.payload.action === 'booking')
    .map((p) => p.payload);

describe('a teacher’s booking notices', () => {
  it('says a move of two siblings once, from when to when', () => {
    const moved = [booking(3, '2026-03-12T17:40:00Z', 20), booking(4, '2026-03-12T17:40:00Z', 21)];
    const pushes = bookingChangePushes(event, undefined, {
      created: moved,
      cancelled: [booking(1, '2026-03-12T17:20:00Z', 20), booking(2, '2026-03-12T17:20:00Z', 21)],
      all: moved,
    });
    expect(toTeacher(pushes)).toEqual([
      {
        action: 'booking',
        title: 'Spring consultations: booking moved',
        body: 'Booking moved from 17:20 to 17:40',
        url: '/event/details-teacher?eventId=7',
      },
    ]);
  });

  it('says a new booking of two siblings once', () => {
    const made = [booking(3, '2026-03-12T17:40:00Z', 20), booking(4, '2026-03-12T17:40:00Z', 21)];
    const pushes = bookingChangePushes(event, undefined, { created: made, cancelled: [], all: made });
    expect(toTeacher(pushes).map((payload) => payload.body)).toEqual(['New booking at 17:40']);
  });
});
