import { RETRY_DELAY_MS, RETRY_LIMIT } from '@parley/domain/constants';
import { routeTo } from '@parley/domain/routes';
import { apiBase } from './api-base';
import { navigateTo } from './navigation';
import { clearSession, getAccessToken } from './session';

// The one way the app talks to the API (spec §7 and §8 "Transport"):
// - every request carries the bearer token from local storage, a JSON content type (dropped for
//   FormData bodies) and the X-Requested-With marker;
// - 503 with `retry: true` is retried up to RETRY_LIMIT times, after 1000 ms then 2000 ms;
// - 401 with `action: 'logout'` removes the token, clears the current user and goes to login;
// - any other error rejects with an ApiError; no response at all is logged and rejected.

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no response arrived (network failure). */
  readonly status: number;
  /** The server's `message`, when it sent one. */
  readonly serverMessage: string | undefined;
  /** The server's per-field validation texts (422). */
  readonly errors: FieldErrors | undefined;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown = null, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.body = body;
    const record = isRecord(body) ? body : {};
    this.serverMessage = typeof record.message === 'string' && record.message ? record.message : undefined;
    this.errors = isFieldErrors(record.errors) ? record.errors : undefined;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions = {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (e.g. the booking page's personal link); they cannot replace the standard ones. */
  headers?: Record<string, string>;
};

export type ApiClientOptions = {
  /** Prefix of every path (spec: paths are relative with prefix api/). */
  baseUrl?: string;
  /** Defaults to the global fetch, looked up at call time. */
  fetch?: typeof fetch;
  /** How to wait between retries; injectable so tests can use fake timers or no waiting at all. */
  sleep?: (ms: number) => Promise<void>;
  getToken?: () => string | null;
  /** Called on 401 with action "logout". */
  onLogout?: () => void;
  log?: (message: string, detail: unknown) => void;
  retryLimit?: number;
  retryDelayMs?: number;
};

export type ApiClient = {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFieldErrors(value: unknown): value is FieldErrors {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (list) => Array.isArray(list) && list.every((text) => typeof text === 'string'),
    )
  );
}

export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function buildUrl(baseUrl: string, path: string, query: Record<string, QueryValue> | undefined): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const relative = path.startsWith('/') ? path : `/${path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const queryString = search.toString();
  return `${base}${relative}${queryString ? `${relative.includes('?') ? '&' : '?'}${queryString}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? apiBase();
  const sleep = options.sleep ?? defaultSleep;
  const getToken = options.getToken ?? (() => null);
  const onLogout = options.onLogout ?? (() => {});
  const log = options.log ?? ((message: string, detail: unknown) => console.error(message, detail));
  const retryLimit = options.retryLimit ?? RETRY_LIMIT;
  const retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;

  async function request<T>(method: string, path: string, requestOptions: RequestOptions = {}): Promise<T> {
    const url = buildUrl(baseUrl, path, requestOptions.query);
    const upperMethod = method.toUpperCase();

    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(requestOptions.headers);
      headers.set('Accept', 'application/json');
      headers.set('X-Requested-With', 'XMLHttpRequest');
      const token = getToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);

      let body: BodyInit | undefined;
      if (typeof FormData !== 'undefined' && requestOptions.body instanceof FormData) {
        body = requestOptions.body; // the browser sets the multipart content type with its boundary
      } else {
        headers.set('Content-Type', 'application/json');
        if (requestOptions.body !== undefined) body = JSON.stringify(requestOptions.body);
        else if (upperMethod !== 'GET' && upperMethod !== 'HEAD') body = '{}';
      }

      let response: Response;
      try {
        const fetchImpl = options.fetch ?? globalThis.fetch;
        response = await fetchImpl(url, {
          method: upperMethod,
          headers,
          body,
          signal: requestOptions.signal,
          credentials: 'same-origin',
        });
      } catch (error) {
        if (requestOptions.signal?.aborted) throw error;
        log(`No response from the server: ${upperMethod} ${url}`, error);
        throw new ApiError(0, 'No response from the server', null, { cause: error });
      }

      const data = await readBody(response);
      if (response.ok) return data as T;

      const record = isRecord(data) ? data : {};
      if (response.status === 503 && record.retry === true && attempt < retryLimit) {
        await sleep(retryDelayMs * (attempt + 1));
        continue;
      }
      if (response.status === 401 && record.action === 'logout') onLogout();
      const message =
        typeof record.message === 'string' && record.message ? record.message : response.statusText;
      throw new ApiError(response.status, message || `Request failed with status ${response.status}`, data);
    }
  }

  return {
    request,
    get: (path, getOptions) => request('GET', path, getOptions),
    post: (path, body, postOptions) => request('POST', path, { ...postOptions, body }),
  };
}

/** The app's client: token from local storage; a 401 logout clears the session and goes to login. */
export const api = createApiClient({
  getToken: getAccessToken,
  onLogout: () => {
    clearSession();
    navigateTo(routeTo('login'));
  },
});

/** First message of each field of the server errors (spec §8), or nothing. */
export function fieldErrorTexts(error: unknown): string[] {
  if (!(error instanceof ApiError) || !error.errors) return [];
  return Object.values(error.errors)
    .map((list) => list[0])
    .filter((text): text is string => typeof text === 'string' && text.length > 0);
}

/** The lines to show for a failed request: field errors, else the server message, else the fallback. */
export function errorLines(error: unknown, fallback: string): string[] {
  const fields = fieldErrorTexts(error);
  if (fields.length > 0) return fields;
  if (error instanceof ApiError && error.serverMessage) return [error.serverMessage];
  return [fallback];
}

/** The server's message for a failed request, else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}
