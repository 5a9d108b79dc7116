// The personal link of an invitation mail (/book/ptevent/{code}?link={token}): the token identifies the
// invited parent or student without a password. It is kept for the tab's session under
// `bookingLink:{code}`, taken out of the address bar, and sent as a header on every booking call.

import { forgetKept, keep, readKept } from '../../lib/url-token';

export const BOOKING_LINK_HEADER = 'X-Booking-Link';
export const BOOKING_LINK_PARAM = 'link';

export const bookingLinkKey = (code: string) => `bookingLink:${code}`;

/**
 * Where a booking page's personal link is kept, for a page rendered by the server: its inline script moves
 * the link from the address into the tab's store before the first paint (apps/web/src/app/prerendered.tsx),
 * as the app would once it runs. Null for any other address.
 */
export function bookingLinkKeeping(pathname: string): { param: string; key: string } | null {
  const code = /^\/book\/(?:ptevent|event)\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (!code) return null;
  try {
    return { param: BOOKING_LINK_PARAM, key: bookingLinkKey(decodeURIComponent(code)) };
  } catch {
    return null; // not an address the router would match either
  }
}

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
