import { errorResponse } from '@parley/domain/auth';
import { bookingConflictResponse, bookingResultResponse } from '@parley/domain/booking';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { compiledSerializer } from './compiled-serializer';

// The compiled serializer writes what the zod one writes (parsed back, the same JSON; only the schema's
// properties), for the answers of a family's booking change.

const zodSerializer = (schema: unknown) =>
  (serializerCompiler as unknown as (input: object) => (data: unknown) => string)({
    schema,
    method: 'POST',
    url: '/api/events/update-slot-for-booking',
  });

const booking = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  slotId: 10 + id,
  sectionId: 3,
  startsAt: '2026-12-10T16:00:00.000Z',
  endsAt: '2026-12-10T16:10:00.000Z',
  timeLabel: 'Thu 10 Dec 2026, 16:00 – 16:10',
  time: '16:00',
  endTime: '16:10',
  teacherId: 5,
  teacherName: 'Ms O’Brien "Maths" \\ <b>',
  videoUrl: null,
  studentId: 9,
  studentName: 'Zoë 😀 \u2028 \ud800',
  parentId: 7,
  parentName: 'Ann',
  subjectId: null,
  subjectName: null,
  location: 'Room 4',
  guests: 0,
  gownSize: null,
  status: 'booked',
  confirmed: false,
  ...extra,
});

const slot = (id: number) => ({
  id,
  startsAt: '2026-12-10T16:00:00.000Z',
  endsAt: '2026-12-10T16:10:00.000Z',
  time: '16:00',
  endTime: '16:10',
  free: id % 2,
  capacity: 1,
  myBookingId: id === 2 ? 42 : null,
  location: null,
});

const cases: Array<[string, unknown, unknown]> = [
  [
    'a booking',
    bookingResultResponse,
    { message: 'Booked.', bookings: [booking(1), booking(2, { secret: 'row column' })], created: [2] },
  ],
  ['no bookings left', bookingResultResponse, { message: 'Cancelled.', bookings: [], created: [] }],
  [
    'a lost race with the column and the bookings',
    bookingConflictResponse,
    {
      message: 'That slot has just been taken.',
      grid: [
        {
          sectionId: 3,
          dateLabel: 'Thu 10 Dec 2026',
          teacherId: 5,
          teacherName: 'Mr T',
          subjects: [{ id: 1, name: 'Maths' }],
          location: null,
          slots: [slot(1), slot(2), slot(3)],
          hidden: true,
        },
      ],
      bookings: [booking(1)],
      statusCode: 409,
    },
  ],
  ['a rule broken', bookingConflictResponse, { message: 'Too many appointments.' }],
  [
    'field errors',
    errorResponse,
    { message: 'Check the fields.', errors: { 'items.0.slotId': ['Not in this event.'] }, stack: 'x' },
  ],
];

describe('compiledSerializer', () => {
  it.each(cases)('writes %s as zod does', (_, schema, data) => {
    const ours = compiledSerializer({ schema })(data);
    const theirs = zodSerializer(schema)(data);
    expect(JSON.parse(ours)).toEqual(JSON.parse(theirs));
    expect(ours).not.toMatch(/secret|hidden|statusCode|stack/);
  });

  it('writes a lone surrogate as JSON.stringify does (escaped), never as a broken character', () => {
    const text = compiledSerializer({ schema: bookingResultResponse })({
      message: 'a\ud800b',
      bookings: [],
      created: [],
    });
    expect(text).toContain('a\\ud800b');
  });
});
