// Business constants and limits from spec §9. One place, shared by the API and the app.
export const APP_VERSION = '1.0.5';
export const DEFAULT_APP_NAME = 'Parley';

export const CACHE_MAX_AGE_MS = 14_400_000; // 4 hours
export const RETRY_LIMIT = 2;
export const RETRY_DELAY_MS = 1000; // times the attempt number
export const SNACKBAR_TIMEOUT_MS = 4000;

export const EVENT_NAME_MAX = 60;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const SCHOOL_NAME_MIN = 3;
export const PERSON_NAME_MIN = 2;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const EMAIL_CHECK_MIN_CHARS = 3;
export const SAMPLE_EVENT_BANNER_LOGIN_COUNT = 5;

/** Spec §9's page sizes of a table, without "all": a district's directory is 40,000 people (decision 035). */
export const DIRECTORY_PAGE_SIZES = [10, 25, 50, 100] as const;
/** People a picker offers at once (a page size): enough to choose from, few enough that typing narrows. */
export const PICKER_OPTIONS = 25;

export const BREAKPOINTS = { xs: 0, sm: 340, md: 540, lg: 800, xl: 1280 } as const;

/** Token lifetimes (issue 2): verification 48 h, reset 1 h, invitation 7 days, sign-in 30 days. */
export const TOKEN_TTL_MS = {
  verify: 48 * 3600_000,
  reset: 3600_000,
  invite: 7 * 24 * 3600_000,
  access: 30 * 24 * 3600_000,
  /** A personal booking link: good for the booking season, renewed by every invitation or reminder. */
  event: 120 * 24 * 3600_000,
  /** Between a right password and the second factor (decision 015): one sign-in, a few minutes. */
  challenge: 5 * 60_000,
} as const;

/**
 * Elements of a page as the server sends it that the app looks for: the JSON block with a booking link's
 * first API answers, and the <template> of a prerendered page that holds its script tags (decision 019).
 */
export const PAGE_ELEMENT_IDS = {
  firstAnswers: 'parley-first-answers',
  prerenderedScripts: 'prerendered-scripts',
} as const;

/**
 * The layout a page is rendered in where it has one per viewport (the booking pages): the server guesses it
 * from the browser's name, and a prerendered page's inline script checks it against the window.
 */
export type Viewport = 'phone' | 'desktop';

/** Local storage keys, spec §3. */
export const STORAGE_KEYS = {
  accessToken: 'ACCESS_TOKEN',
  currentUser: 'currentUser',
  users: 'users',
  admins: 'admins',
  teachers: 'teachers',
  parents: 'parents',
  students: 'students',
  currentEvent: 'currentEvent',
  homeData: 'homeData',
  lastHomeDataRefresh: 'lastHomeDataRefresh',
  appHeading: 'appHeading',
  subscriberName: 'subscriberName',
  deviceTokenRegistered: 'deviceTokenRegistered',
  lastViewAsRole: 'lastViewAsRole',
  events: 'events',
  lastEventsRefresh: 'lastEventsRefresh',
  eventTypes: 'eventTypes',
  calendarEvents: 'calendarEvents',
  /** The app's persisted data cache (lists, home data, events): see docs/architecture.md. */
  queryCache: 'queryCache',
  theme: 'theme',
} as const;
