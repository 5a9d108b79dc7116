import { PAGE_ELEMENT_IDS, STORAGE_KEYS } from '@parley/domain/constants';

// A booking link's page arrives with the first answers it would ask the API for (the server asks itself
// on the page's behalf: apps/server/src/plugins/web-app.ts), so its first render shows the page instead of
// waiting a round trip after the scripts have run (decision 019). Each answer is taken once, by the query
// it is for, while the page that brought it is still the one shown; after that the app asks as always.

/** How long an answer that came with the page counts as fresh: its query does not ask again meanwhile. */
export const FIRST_ANSWER_FRESH_MS = 30_000;

type Answers = {
  /** When the server made them (ms since the epoch). */
  at: number;
  siteConfig?: unknown;
  bookingPage?: { code: string; link: string | null; answer: unknown };
};

let read: Answers | null | undefined;

/**
 * The page's answers, read once. None for a visitor with a stored session: the app's own calls carry the
 * session, and the API answers them for that person rather than for the link.
 */
function answers(): Answers | null {
  if (read !== undefined) return read;
  read = null;
  const element =
    typeof document === 'undefined' ? null : document.getElementById(PAGE_ELEMENT_IDS.firstAnswers);
  if (!element) return read;
  element.remove();
  try {
    if (localStorage.getItem(STORAGE_KEYS.accessToken)) return read;
  } catch {
    // no storage: no stored session either
  }
  try {
    const parsed = JSON.parse(element.textContent ?? '') as Answers;
    if (typeof parsed?.at === 'number') read = parsed;
  } catch {
    // a damaged block: the app asks the API, as without one
  }
  return read;
}

/** An answer with the time it was made, for TanStack Query's initialData and initialDataUpdatedAt. */
export type FirstAnswer<T> = { data: T; at: number };

/** The site's settings, when the page brought them (taken once). */
export function firstSiteConfig<T>(): FirstAnswer<T> | undefined {
  const all = answers();
  if (!all?.siteConfig) return undefined;
  const data = all.siteConfig as T;
  all.siteConfig = undefined;
  return { data, at: all.at };
}

/** The booking page of `code` opened with `link`, when the page brought it (taken once). */
export function firstBookingPage<T>(code: string, link: string | null): FirstAnswer<T> | undefined {
  const all = answers();
  const page = all?.bookingPage;
  if (!all || !page || page.code !== code || page.link !== link) return undefined;
  all.bookingPage = undefined;
  return { data: page.answer as T, at: all.at };
}

/** Forgets what was read (tests render several pages in one document). */
export function resetFirstAnswers(): void {
  read = undefined;
}
