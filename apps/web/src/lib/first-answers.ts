import { PAGE_ELEMENT_IDS } from '@parley/domain/constants';
import { getSession } from './session';

// A booking link's page, and a signed-in visitor's home, arrive with the first answers they would ask the
// API for (the server asks itself on the page's behalf: apps/server/src/plugins/web-app.ts), so the first
// render shows the page instead of waiting a round trip after the scripts have run (decisions 019, 028).
// Each answer is taken once, by the query it is for, while the page that brought it is still the one
// shown; after that the app asks as always.

/** How long an answer that came with the page counts as fresh: its query does not ask again meanwhile. */
export const FIRST_ANSWER_FRESH_MS = 30_000;

type Answers = {
  /** When the server made them (ms since the epoch). */
  at: number;
  /** The signed-in user they were asked for (home); none: a signed-out visitor's (a booking link). */
  visitor?: number;
  siteConfig?: unknown;
  home?: unknown;
  bookingPage?: { code: string; link: string | null; answer: unknown };
};

let read: Answers | null | undefined;

/**
 * The page's answers, read once, when they are this visitor's: a signed-out visitor's for a browser without
 * a stored session (with one, the app's own calls carry the session, and the API answers them for that
 * person rather than for the link); a signed-in visitor's for that user's stored session only.
 */
function answers(): Answers | null {
  if (read !== undefined) return read;
  read = null;
  const element =
    typeof document === 'undefined' ? null : document.getElementById(PAGE_ELEMENT_IDS.firstAnswers);
  if (!element) return read;
  element.remove();
  let parsed: Answers | null = null;
  try {
    parsed = JSON.parse(element.textContent ?? '') as Answers;
  } catch {
    // a damaged block: the app asks the API, as without one
  }
  if (typeof parsed?.at !== 'number') return read;
  const { token, user } = getSession();
  if (parsed.visitor === undefined ? token === null : token !== null && user?.id === parsed.visitor)
    read = parsed;
  return read;
}

/** An answer with the time it was made, for TanStack Query's initialData and initialDataUpdatedAt. */
export type FirstAnswer<T> = { data: T; at: number };

/** One answer the page brought, taken once. */
function take<T>(key: 'siteConfig' | 'home'): FirstAnswer<T> | undefined {
  const all = answers();
  const data = all?.[key];
  if (!all || data === undefined) return undefined;
  all[key] = undefined;
  return { data: data as T, at: all.at };
}

/** The site's settings, when the page brought them (taken once). */
export const firstSiteConfig = <T>() => take<T>('siteConfig');

/** Home's data, when the page brought it for this user (taken once). */
export const firstHomeData = <T>() => take<T>('home');

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
