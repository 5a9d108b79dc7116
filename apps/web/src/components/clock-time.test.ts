import { describe, expect, it } from 'vitest';
import { normaliseClockTime, readClockTime } from './clock-time';

describe('readClockTime', () => {
  it.each([
    ['16:30', '16:30'],
    ['16.30', '16:30'],
    ['1630', '16:30'],
    ['9:05', '09:05'],
    ['905', '09:05'],
    ['9', '09:00'],
    ['00:00', '00:00'],
    ['23:59', '23:59'],
    [' 7:45 ', '07:45'],
  ])('reads %j as %s', (text, expected) => {
    expect(readClockTime(text)).toBe(expected);
  });

  it.each(['', '24:00', '16:60', '4:30 PM', '4pm', '16:3', '12345', 'abc'])('refuses %j', (text) => {
    expect(readClockTime(text)).toBeNull();
  });

  it('keeps what is not a time as typed, so the field can show it with its error', () => {
    expect(normaliseClockTime('1630')).toBe('16:30');
    expect(normaliseClockTime(' 4pm ')).toBe('4pm');
  });
});
