import { describe, expect, it } from 'vitest';
import { runningLateRequest } from './live-schemas';
import { expectedStart, lateLine, latePush, nextUpPush, readLiveMessage } from './live-timing';

// Live timing's rules (issue 41): expected times in the school's zone, across the clock change too.

describe('live timing', () => {
  it('puts a booking’s expected time in the school’s zone, only when its own teacher runs late', () => {
    const booking = { teacherId: 3, startsAt: '2027-03-28T15:50:00Z' };
    // Sunday 28 March 2027 is BST: 15:50 UTC is 16:50 in London.
    expect(lateLine(booking, [{ teacherId: 3, lateMinutes: 15 }], 'Europe/London')).toBe(
      'Running 15 minutes late: expected at 17:05',
    );
    expect(lateLine(booking, [{ teacherId: 4, lateMinutes: 15 }], 'Europe/London')).toBeNull();
    expect(lateLine(booking, [{ teacherId: 3, lateMinutes: 0 }], 'Europe/London')).toBeNull();
    expect(expectedStart(new Date('2027-03-28T15:50:00Z'), 15).toISOString()).toBe(
      '2027-03-28T16:05:00.000Z',
    );
  });

  it('words the pushes', () => {
    const starts = new Date('2026-12-07T17:20:00Z');
    expect(latePush('Spring evening', 'Sam Smith', 10, starts, 'Europe/London')).toEqual({
      title: 'Spring evening: running late',
      body: 'Sam Smith is running 10 minutes late. Your 17:20 appointment is now expected at 17:30.',
    });
    expect(latePush('Spring evening', 'Sam Smith', 0, starts, 'America/New_York')).toEqual({
      title: 'Spring evening: back on time',
      body: 'Sam Smith is back on time. Your appointment is at 12:20.',
    });
    expect(nextUpPush('Spring evening', 'Sam Smith', starts, 'Europe/London').body).toBe(
      "You're next with Sam Smith at 17:20.",
    );
  });

  it('reads the live channel’s messages, and nothing else', () => {
    expect(readLiveMessage('{"type":"timing","eventId":12}')).toEqual({ type: 'timing', eventId: 12 });
    expect(readLiveMessage('{"type":"ready"}')).toEqual({ type: 'ready' });
    for (const text of [
      'x',
      'null',
      '{"type":"timing","eventId":"12"}',
      '{"type":"timing","eventId":1.5}',
      '[]',
    ])
      expect(readLiveMessage(text)).toBeNull();
  });

  it('takes whole minutes from 0 to 120', () => {
    expect(runningLateRequest.safeParse({ eventId: 1, minutes: 120 }).success).toBe(true);
    for (const minutes of [-1, 121, 2.5, '5', null])
      expect(runningLateRequest.safeParse({ eventId: 1, minutes }).success).toBe(false);
  });
});
