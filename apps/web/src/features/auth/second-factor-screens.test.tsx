import { STORAGE_KEYS } from '@parley/domain/constants';
import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';
import { codeProblem } from './components/second-factor-step';
import { SECOND_FACTOR_TEXT } from './second-factor-text';

// The login's second step and the breached-password answer, through the real router and API client.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;
const bodyOf = (path: string) =>
  JSON.parse(String(requests.filter((request) => request.path === path).at(-1)?.init.body));

function type(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.input(input, { target: { value } });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
  return input as HTMLInputElement;
}

beforeEach(() => {
  localStorage.clear();
  reloadSession();
  queryClient.clear();
  requests = [];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/site/index': () => json(200, { subscriberName: 'Hill School', viewAsSelectorItems: [] }),
    '/api/user/login': () =>
      json(200, { secondFactorRequired: true, challenge: 'chal-1', message: SERVER_TEXT.secondFactorNeeded }),
  };
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

async function passwordStep() {
  renderAt('/auth/login');
  type('Email', 'ada@hill.test');
  type('Password', 'correct horse battery');
  const button = await screen.findByRole('button', { name: 'Log In' });
  await waitFor(() => expect(isDisabled(button)).toBe(false));
  fireEvent.click(button);
  return screen.findByLabelText(SECOND_FACTOR_TEXT.code);
}

describe('login with two-factor sign-in', { timeout: 20_000 }, () => {
  it('asks for the 6-digit code after the password, sends it with the challenge and signs in', async () => {
    routes['/api/user/login-second-factor'] = () =>
      json(200, { accessToken: 'tok-2fa', user: adminUser, message: 'Logged in.' });
    await passwordStep();
    expect(screen.getByText(SECOND_FACTOR_TEXT.title)).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    const verify = screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify });
    expect(isDisabled(verify)).toBe(true);

    type(SECOND_FACTOR_TEXT.code, '12345');
    expect(await screen.findByText(SECOND_FACTOR_TEXT.codeFormat)).toBeTruthy();
    expect(isDisabled(verify)).toBe(true);
    type(SECOND_FACTOR_TEXT.code, '123 456');
    await waitFor(() => expect(isDisabled(verify)).toBe(false));
    fireEvent.click(verify);

    expect(await screen.findByText('Welcome, Ada')).toBeTruthy();
    expect(bodyOf('/api/user/login-second-factor')).toEqual({ challenge: 'chal-1', code: '123 456' });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('tok-2fa');
  });

  it('shows a wrong code on the field and keeps the step; a recovery code can be used instead', async () => {
    let calls = 0;
    routes['/api/user/login-second-factor'] = () =>
      ++calls === 1
        ? json(422, {
            message: SERVER_TEXT.secondFactorWrong,
            errors: { code: [SERVER_TEXT.secondFactorWrong] },
          })
        : json(200, {
            accessToken: 'tok-rc',
            user: adminUser,
            message: SERVER_TEXT.signedInWithRecoveryCode(9),
          });
    await passwordStep();
    type(SECOND_FACTOR_TEXT.code, '000000');
    fireEvent.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }));
    expect(await screen.findByText(SERVER_TEXT.secondFactorWrong)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.useRecoveryCode }));
    expect(screen.queryByLabelText(SECOND_FACTOR_TEXT.code)).toBeNull();
    expect(screen.getByText(SECOND_FACTOR_TEXT.recoveryHelp)).toBeTruthy();
    type(SECOND_FACTOR_TEXT.recoveryCode, 'abcd-efgh');
    expect(await screen.findByText(SECOND_FACTOR_TEXT.recoveryFormat)).toBeTruthy();
    type(SECOND_FACTOR_TEXT.recoveryCode, 'abcd-efgh-jkmn');
    const verify = screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify });
    await waitFor(() => expect(isDisabled(verify)).toBe(false));
    fireEvent.click(verify);
    expect(await screen.findByText('Welcome, Ada')).toBeTruthy();
    expect(bodyOf('/api/user/login-second-factor')).toEqual({ challenge: 'chal-1', code: 'abcd-efgh-jkmn' });
  });

  it('an expired challenge goes back to the password with the server’s message', async () => {
    routes['/api/user/login-second-factor'] = () =>
      json(400, {
        message: SERVER_TEXT.challengeExpired,
        errors: { challenge: [SERVER_TEXT.challengeExpired] },
      });
    await passwordStep();
    type(SECOND_FACTOR_TEXT.code, '123456');
    fireEvent.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }));
    expect(await screen.findByText(SERVER_TEXT.challengeExpired)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@hill.test');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
  });

  it('"Back to login" leaves the step', async () => {
    await passwordStep();
    fireEvent.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.startOver }));
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it('checks the shape of a code before sending it', () => {
    expect(codeProblem('123456', false)).toBeNull();
    expect(codeProblem(' 123 456 ', false)).toBeNull();
    expect(codeProblem('12345a', false)).toBe(SECOND_FACTOR_TEXT.codeFormat);
    expect(codeProblem('ABCD EFGH JKMN', true)).toBeNull();
    expect(codeProblem('abcd-efgh', true)).toBe(SECOND_FACTOR_TEXT.recoveryFormat);
  });
});

describe('a breached password', { timeout: 20_000 }, () => {
  it('register shows the server’s answer on the password field', async () => {
    routes['/api/users/search-email-for-signup'] = () => json(200, { exists: false });
    routes['/api/site/signup'] = () =>
      json(422, {
        message: VALIDATION.passwordBreached,
        errors: { password: [VALIDATION.passwordBreached] },
      });
    renderAt('/auth/register');
    type('School name', 'Hill School');
    type('First name', 'Ada');
    type('Last name', 'Lovelace');
    type('Email', 'ada@hill.test');
    type('Password', 'Password123');
    const button = await screen.findByRole('button', { name: 'Register' });
    await waitFor(() => expect(isDisabled(button)).toBe(false));
    fireEvent.click(button);
    const message = await screen.findAllByText(VALIDATION.passwordBreached);
    expect(message.length).toBeGreaterThan(0);
    const field = screen.getByLabelText('Password');
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });
});
