import { STORAGE_KEYS } from '@parley/domain/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, createApiClient, errorLines } from './api-client';
import { setNavigate } from './navigation';
import { getSession, reloadSession } from './session';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type FetchMock = ReturnType<typeof vi.fn<typeof fetch>>;

function lastInit(fetchMock: FetchMock): RequestInit {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  return call[1] ?? {};
}

const silent = () => {};

describe('api client: retries (spec §8: 503 + retry flag)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a 503 with retry: true twice, after 1000 ms then 2000 ms, then rejects', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(503, { message: 'busy', retry: true }));
    const client = createApiClient({ fetch: fetchMock, log: silent });

    const result = client.get('site/index').then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);

    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);

    const error = await result;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, serverMessage: 'busy' });

    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('resolves when the retry succeeds', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(json(503, { message: 'busy', retry: true }))
      .mockResolvedValueOnce(json(200, { subscriberName: 'Hill School' }));
    const client = createApiClient({ fetch: fetchMock, log: silent });

    const result = client.get<{ subscriberName: string }>('site/index');
    await vi.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toEqual({ subscriberName: 'Hill School' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not retry a 503 without the retry flag', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(503, { message: 'down' }));
    const client = createApiClient({ fetch: fetchMock, log: silent });
    await expect(client.get('site/index')).rejects.toMatchObject({ status: 503 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('waits through the injected sleep with 1000 ms times the attempt number', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    const fetchMock = vi.fn<typeof fetch>(async () => json(503, { message: 'busy', retry: true }));
    const client = createApiClient({ fetch: fetchMock, sleep, log: silent });
    await expect(client.post('events/create', { name: 'x' })).rejects.toBeInstanceOf(ApiError);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});

describe('api client: headers and bodies (spec §7)', () => {
  it('sends the bearer token, JSON content type and the XHR marker', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(200, { ok: true }));
    const client = createApiClient({ fetch: fetchMock, getToken: () => 'tok-123' });
    await client.post('user/login', { email: 'a@b.co' }, { query: { q: 'x y', skip: undefined } });

    const [url] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/user/login?q=x+y');
    const init = lastInit(fetchMock);
    const headers = new Headers(init.headers);
    expect(init.method).toBe('POST');
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.co' }));
  });

  it('adds extra headers without letting them replace the standard ones', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(200, {}));
    const client = createApiClient({ fetch: fetchMock, getToken: () => 'tok' });
    await client.get('events/book-event', {
      query: { code: 'ABC' },
      headers: { 'X-Booking-Link': 'link-1', 'X-Requested-With': 'other' },
    });
    const headers = new Headers(lastInit(fetchMock).headers);
    expect(headers.get('X-Booking-Link')).toBe('link-1');
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('Authorization')).toBe('Bearer tok');
    await client.post('events/remove-booking', { bookingId: 1 }, { headers: { 'X-Booking-Link': 'link-2' } });
    expect(new Headers(lastInit(fetchMock).headers).get('X-Booking-Link')).toBe('link-2');
    expect(new Headers(lastInit(fetchMock).headers).get('Content-Type')).toBe('application/json');
  });

  it('sends no Authorization header without a token', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(200, {}));
    const client = createApiClient({ fetch: fetchMock, getToken: () => null });
    await client.get('site/config');
    expect(new Headers(lastInit(fetchMock).headers).has('Authorization')).toBe(false);
    expect(lastInit(fetchMock).body).toBeUndefined();
  });

  it('drops the JSON content type for FormData bodies', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(200, {}));
    const client = createApiClient({ fetch: fetchMock, getToken: () => 'tok' });
    const form = new FormData();
    form.append('file', 'a,b,c');
    await client.post('users/bulk-add-teachers', form);
    const init = lastInit(fetchMock);
    const headers = new Headers(init.headers);
    expect(headers.has('Content-Type')).toBe(false);
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(init.body).toBe(form);
  });

  it('sends an empty JSON object for a POST without a body', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(200, { message: 'Logged out.' }));
    const client = createApiClient({ fetch: fetchMock });
    await client.post('user/logout');
    expect(lastInit(fetchMock).body).toBe('{}');
  });
});

describe('api client: errors (spec §8)', () => {
  it('rejects with an ApiError carrying status, message and field errors', async () => {
    const body = {
      message: 'Please correct the highlighted fields.',
      errors: { email: ['Invalid email format'] },
    };
    const fetchMock = vi.fn<typeof fetch>(async () => json(422, body));
    const client = createApiClient({ fetch: fetchMock });
    const error = await client.post('site/signup', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: body.message,
      serverMessage: body.message,
      errors: body.errors,
    });
    expect(errorLines(error, 'fallback')).toEqual(['Invalid email format']);
  });

  it('logs and rejects when no response arrives', async () => {
    const log = vi.fn();
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const client = createApiClient({ fetch: fetchMock, log });
    const error = await client.get('site/config').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, serverMessage: undefined });
    expect(log).toHaveBeenCalledTimes(1);
    expect(errorLines(error, 'Login failed. Please try again.')).toEqual(['Login failed. Please try again.']);
  });

  it('calls onLogout for a 401 with action logout, and not for a plain 401', async () => {
    const onLogout = vi.fn();
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(json(401, { message: 'Incorrect email or password.' }))
      .mockResolvedValueOnce(json(401, { message: 'Other.', action: 'refresh' }))
      .mockResolvedValueOnce(json(401, { message: 'Please log in.', action: 'logout' }));
    const client = createApiClient({ fetch: fetchMock, onLogout });

    await expect(client.post('user/login', {})).rejects.toMatchObject({ status: 401 });
    await expect(client.get('site/index')).rejects.toMatchObject({ status: 401 });
    expect(onLogout).not.toHaveBeenCalled();
    await expect(client.get('users/data')).rejects.toMatchObject({ status: 401 });
    expect(onLogout).toHaveBeenCalledTimes(1);
  });
});

describe('the app client (401 logout wiring)', () => {
  const navigate = vi.fn();
  const user = {
    id: 1,
    firstName: 'Ada',
    subscriberName: 'Hill School',
  };

  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
    localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
    localStorage.setItem(STORAGE_KEYS.homeData, '{"eventsCount":1}');
    reloadSession();
    navigate.mockClear();
    setNavigate(navigate);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    reloadSession();
  });

  it('removes the token, clears the current user and goes to login on 401 with action logout', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => json(401, { message: 'Please log in.', action: 'logout' })),
    );
    await expect(api.get('users/data')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.currentUser)).toBeNull();
    expect(getSession()).toMatchObject({ token: null, user: null });
    expect(navigate).toHaveBeenCalledWith('/auth/login');
  });

  it('does nothing extra on a 401 without the logout action', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => json(401, { message: 'Incorrect email or password.' })),
    );
    await expect(api.post('user/login', {})).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('tok-1');
    expect(localStorage.getItem(STORAGE_KEYS.currentUser)).not.toBeNull();
    expect(getSession().token).toBe('tok-1');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('sends the stored token', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.get('users/data');
    expect(new Headers(lastInit(fetchMock).headers).get('Authorization')).toBe('Bearer tok-1');
  });
});
