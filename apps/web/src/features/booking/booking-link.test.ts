import { afterEach, describe, expect, it } from 'vitest';
import {
  bookingLinkHeaders,
  bookingLinkKey,
  forgetBookingLink,
  readBookingLink,
  saveBookingLink,
} from './booking-link';

afterEach(() => sessionStorage.clear());

describe('the personal booking link', () => {
  it('is kept per code in sessionStorage under bookingLink:{code}', () => {
    expect(bookingLinkKey('SPRING')).toBe('bookingLink:SPRING');
    expect(readBookingLink('SPRING')).toBeNull();
    saveBookingLink('SPRING', 'tok-1');
    expect(sessionStorage.getItem('bookingLink:SPRING')).toBe('tok-1');
    expect(readBookingLink('SPRING')).toBe('tok-1');
    expect(readBookingLink('OTHER')).toBeNull();
    forgetBookingLink('SPRING');
    expect(readBookingLink('SPRING')).toBeNull();
    expect(localStorage.getItem('bookingLink:SPRING')).toBeNull();
  });

  it('travels as the X-Booking-Link header, and no header without a token', () => {
    expect(bookingLinkHeaders('tok-1')).toEqual({ 'X-Booking-Link': 'tok-1' });
    expect(bookingLinkHeaders(null)).toBeUndefined();
  });
});
