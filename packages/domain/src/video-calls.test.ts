import { describe, expect, it } from 'vitest';
import { CALL_TEXT, callOpensAt, callRefusal, callWindow } from './video-calls';

// When a video appointment's call can be joined (issue 41): from five minutes before its start until its
// end, said in the school's zone.

describe('a call’s window', () => {
  const starts = new Date('2026-12-07T17:20:00Z');
  const ends = new Date('2026-12-07T17:30:00Z');
  const at = (iso: string) => new Date(iso);

  it('opens five minutes before the start and closes at the end', () => {
    expect(callOpensAt(starts).toISOString()).toBe('2026-12-07T17:15:00.000Z');
    expect(callWindow(starts, ends, at('2026-12-07T17:14:59.999Z'))).toBe('early');
    expect(callWindow(starts, ends, at('2026-12-07T17:15:00Z'))).toBe('open');
    expect(callWindow(starts, ends, at('2026-12-07T17:29:59.999Z'))).toBe('open');
    expect(callWindow(starts, ends, at('2026-12-07T17:30:00Z'))).toBe('ended');
  });

  it('says why not, with the opening time on the school’s clock', () => {
    expect(callRefusal(starts, ends, at('2026-12-07T17:00:00Z'), 'America/New_York')).toBe(
      CALL_TEXT.tooEarly('12:15'),
    );
    expect(callRefusal(starts, ends, at('2026-12-07T17:31:00Z'), 'Europe/London')).toBe(CALL_TEXT.ended);
    expect(callRefusal(starts, ends, at('2026-12-07T17:20:00Z'), 'Europe/London')).toBeNull();
  });
});
