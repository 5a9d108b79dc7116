// The personal link of an invitation mail (/book/ptevent/{code}?link={token}): the token identifies the
// invited parent or student without a password. It is kept for the tab's session under
// `bookingLink:{code}`, taken out of the address bar, and sent as a header on every booking call.

import { forgetKept, keep, readKept } from '../../lib/url-token';

export const BOOKING_LINK_HEADER = 'X-Booking-Link';
export const BOOKING_LINK_PARAM = 'link';

export const bookingLinkKey = (code: string) => `bookingLink:${code}`;

export function readBookingLink(code: string): string | null {
  return readKept(bookingLinkKey(code));
}

export function saveBookingLink(code: string, token: string): void {
  keep(bookingLinkKey(code), token);
}

export function forgetBookingLink(code: string): void {
  forgetKept(bookingLinkKey(code));
}

/** The headers of a booking call: the personal link when there is one. */
export function bookingLinkHeaders(token: string | null): Record<string, string> | undefined {
  return token ? { [BOOKING_LINK_HEADER]: token } : undefined;
}
