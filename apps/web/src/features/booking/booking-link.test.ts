import { afterEach, describe, expect, it } from 'vitest';
import {
  bookingLinkHeaders,
  bookingLinkKey,
  forgetBookingLink,
  readBookingLink,
  saveBookingLink,
  searchWithoutLink,
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

  it('is taken out of the address, keeping the other parameters', () => {
    expect(searchWithoutLink('?link=abc')).toBe('');
    expect(searchWithoutLink('?link=abc&tab=2')).toBe('?tab=2');
    expect(searchWithoutLink('?tab=2')).toBeNull();
    expect(searchWithoutLink('')).toBeNull();
  });
});
