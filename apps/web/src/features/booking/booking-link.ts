// The personal link of an invitation mail (/book/ptevent/{code}?link={token}): the token identifies the
// invited parent or student without a password. It is kept for the tab's session under
// `bookingLink:{code}`, taken out of the address bar, and sent as a header on every booking call.

export const BOOKING_LINK_HEADER = 'X-Booking-Link';
export const BOOKING_LINK_PARAM = 'link';

export const bookingLinkKey = (code: string) => `bookingLink:${code}`;

function store(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function readBookingLink(code: string): string | null {
  try {
    return store()?.getItem(bookingLinkKey(code)) || null;
  } catch {
    return null;
  }
}

export function saveBookingLink(code: string, token: string): void {
  try {
    store()?.setItem(bookingLinkKey(code), token);
  } catch {
    // Storage unavailable: the token still travels for this page view (it is read from the address).
  }
}

export function forgetBookingLink(code: string): void {
  try {
    store()?.removeItem(bookingLinkKey(code));
  } catch {
    // nothing to remove
  }
}

/** The headers of a booking call: the personal link when there is one. */
export function bookingLinkHeaders(token: string | null): Record<string, string> | undefined {
  return token ? { [BOOKING_LINK_HEADER]: token } : undefined;
}

/** The address without the `link` parameter (other parameters and the hash kept), or null when absent. */
export function searchWithoutLink(search: string): string | null {
  const params = new URLSearchParams(search);
  if (!params.has(BOOKING_LINK_PARAM)) return null;
  params.delete(BOOKING_LINK_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}
