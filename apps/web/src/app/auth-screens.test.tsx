import { STORAGE_KEYS } from '@parley/domain/constants';
import { AUTH_ERRORS, AUTH_TEXT, VALIDATION } from '@parley/domain/messages';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootstrapSession } from '../features/auth/api';
import { queryClient } from '../lib/query-client';
import { getSession, reloadSession } from '../lib/session';
import { renderAt } from '../test-support/render-app';
import {
  adminUser,
  emptyHomeData,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../test-support/screen-fixtures';

// Screen flows through the real router, guard, providers and API client; only fetch is faked.

const user = adminUser;

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const pageSessionCalls = () => requests.filter((request) => request.path === '/api/user/page-session');

const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;

function type(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.input(input, { target: { value } });
  fireEvent.blur(input);
  return input as HTMLInputElement;
}

beforeEach(() => {
  localStorage.clear();
  reloadSession();
  queryClient.clear();
  requests = [];
  routes = { '/api/site/config': () => json(200, siteConfig) };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('login screen', () => {
  it('keeps Log In disabled until the form is valid and shows field rules', async () => {
    renderAt('/login');
    const button = await screen.findByRole('button', { name: 'Log In' });
    expect(isDisabled(button)).toBe(true);
    expect(screen.getByText(AUTH_TEXT.loginNote)).toBeTruthy();

    type('Email', 'not-an-email');
    type('Password', 'short');
    expect(await screen.findByText(VALIDATION.invalidEmail)).toBeTruthy();
    expect(await screen.findByText(VALIDATION.passwordMin)).toBeTruthy();
    expect(isDisabled(button)).toBe(true);

    type('Email', 'ada@hill.test');
    type('Password', 'long enough');
    await waitFor(() => expect(isDisabled(button)).toBe(false));
  });

  it('links to reset password, register and resend invitation', async () => {
    renderAt('/auth/login');
    expect((await screen.findByRole('link', { name: 'Reset password' })).getAttribute('href')).toBe(
      '/auth/request-reset',
    );
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/auth/register');
    expect(screen.getByRole('link', { name: 'Resend invitation' }).getAttribute('href')).toBe(
      '/auth/resend-invitation',
    );
  });

  it('shows the server message on failure and keeps what was typed', async () => {
    routes['/api/user/login'] = () => json(401, { message: 'Incorrect email or password.' });
    renderAt('/auth/login');
    const email = type('Email', 'ada@hill.test');
    const password = type('Password', 'wrong password');
    const button = await screen.findByRole('button', { name: 'Log In' });
    await waitFor(() => expect(isDisabled(button)).toBe(false));
    fireEvent.click(button);

    expect(await screen.findByText('Incorrect email or password.')).toBeTruthy();
    expect(email.value).toBe('ada@hill.test');
    expect(password.value).toBe('wrong password');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('shows the first message of each field of the server errors, else the fallback', async () => {
    routes['/api/user/login'] = () =>
      json(422, {
        message: 'Please correct the highlighted fields.',
        errors: { email: ['Email first', 'Email second'], password: ['Password first'] },
      });
    renderAt('/auth/login');
    type('Email', 'ada@hill.test');
    type('Password', 'password1');
    const button = await screen.findByRole('button', { name: 'Log In' });
    await waitFor(() => expect(isDisabled(button)).toBe(false));
    fireEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Email first');
    expect(alert.textContent).toContain('Password first');
    expect(alert.textContent).not.toContain('Email second');
    expect(alert.textContent).not.toContain('Please correct');

    routes['/api/user/login'] = () => new Response('bad gateway', { status: 502 });
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(AUTH_ERRORS.loginFailed));
  });

  it('stores the session, clears cached lists and goes home on success', async () => {
    queryClient.setQueryData(['people', 'teachers'], [{ id: 1, name: 'Old List' }]);
    localStorage.setItem(STORAGE_KEYS.queryCache, '{"people":"old"}');
    localStorage.setItem(STORAGE_KEYS.lastViewAsRole, 'parent');
    routes['/api/user/login'] = () => json(200, { accessToken: 'tok-9', user, message: 'Welcome' });
    routes['/api/site/index'] = () => json(200, emptyHomeData);
    const router = renderAt('/auth/login');
    type('Email', 'ADA@hill.test ');
    type('Password', 'password1');
    const button = await screen.findByRole('button', { name: 'Log In' });
    await waitFor(() => expect(isDisabled(button)).toBe(false));
    fireEvent.click(button);

    expect(await screen.findByText('Welcome, Ada')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/home');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('tok-9');
    expect(queryClient.getQueryData(['people', 'teachers'])).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.queryCache) ?? '').not.toContain('people');
    expect(localStorage.getItem(STORAGE_KEYS.lastViewAsRole)).toBeNull();
    const login = requests.find((request) => request.path === '/api/user/login');
    expect(JSON.parse(String(login?.init.body))).toEqual({ email: 'ada@hill.test', password: 'password1' });
    // The new session is handed to this browser's page requests (decision 028).
    await waitFor(() => expect(pageSessionCalls()).toHaveLength(1));
    expect(pageSessionCalls()[0]?.init.method).toBe('POST');
    expect(new Headers(pageSessionCalls()[0]?.init.headers).get('Authorization')).toBe('Bearer tok-9');
  });
});

describe('the session at start', () => {
  const storeSession = () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
    localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
    reloadSession();
  };

  it('refreshes the stored user, then hands the session to the page requests again', async () => {
    storeSession();
    routes['/api/users/data'] = () => json(200, { ...user, firstName: 'Adele' });
    await bootstrapSession();
    expect(getSession().user?.firstName).toBe('Adele');
    await waitFor(() => expect(pageSessionCalls()).toHaveLength(1));
    expect(new Headers(pageSessionCalls()[0]?.init.headers).get('Authorization')).toBe('Bearer tok-1');
  });

  it('hands nothing over for a session the server has ended, or without one', async () => {
    await bootstrapSession();
    storeSession();
    routes['/api/users/data'] = () => json(401, { message: 'Please log in.', action: 'logout' });
    await bootstrapSession();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pageSessionCalls()).toHaveLength(0);
  });
});

describe('guarded navigation', () => {
  it('sends a visitor from a private page to login', async () => {
    const router = renderAt('/events');
    await screen.findByRole('button', { name: 'Log In' });
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('renders a placeholder page with its heading for a logged-in admin', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
    localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
    reloadSession();
    renderAt('/billing');
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeTruthy();
  });

  it('clears the stored session when a verify page opens', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
    localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
    reloadSession();
    renderAt('/verify-email');
    expect(await screen.findByText(AUTH_ERRORS.verifyEmailNoToken)).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.currentUser)).toBeNull();
  });
});

describe('register screen', () => {
  it('checks the email live and blocks an email already in use', async () => {
    routes['/api/users/search-email-for-signup'] = (url) =>
      json(200, { exists: url.searchParams.get('q') === 'taken@hill.test' });
    renderAt('/register');
    await screen.findByRole('button', { name: 'Register' });
    expect(screen.getByText(AUTH_TEXT.registerNote)).toBeTruthy();

    type('School name', 'Hill School');
    type('First name', 'Ada');
    type('Last name', 'Lovelace');
    type('Password', 'password1');
    type('Email', 'taken@hill.test');
    expect(await screen.findByText(VALIDATION.emailInUse)).toBeTruthy();
    expect(isDisabled(screen.getByRole('button', { name: 'Register' }))).toBe(true);

    type('Email', 'free@hill.test');
    await waitFor(() => expect(screen.queryByText(VALIDATION.emailInUse)).toBeNull());
    await waitFor(() => expect(isDisabled(screen.getByRole('button', { name: 'Register' }))).toBe(false));
  });

  it('says "Error checking email" when the check fails, and shows the success dialog', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    routes['/api/users/search-email-for-signup'] = () => json(500, { message: 'boom' });
    routes['/api/site/signup'] = () => json(200, { success: true, message: 'ok' });
    const router = renderAt('/auth/register');
    type('School name', 'Hill School');
    type('First name', 'Ada');
    type('Last name', 'Lovelace');
    type('Email', 'ada@hill.test');
    type('Password', 'password1');
    expect(await screen.findByText(VALIDATION.emailCheckFailed)).toBeTruthy();

    const button = screen.getByRole('button', { name: 'Register' });
    await waitFor(() => expect(isDisabled(button)).toBe(false));
    fireEvent.click(button);
    expect(await screen.findByText(AUTH_TEXT.registerSuccess)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Go to login' }));
    });
    expect(router.state.location.pathname).toBe('/auth/login');
  });
});
