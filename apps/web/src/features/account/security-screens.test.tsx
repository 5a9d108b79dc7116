import { STORAGE_KEYS } from '@parley/domain/constants';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { SessionItem } from '@parley/domain/sessions';
import type { TwoFactorStatus } from '@parley/domain/two-factor';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
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
import { SESSIONS_TEXT, TWO_FACTOR_TEXT } from './account-text';
import { proofOf } from './api';
import { groupedSecret } from './components/two-factor-setup-dialog';
import { recoveryCodesText, sortSessions } from './security-format';

// The profile's security cards through the real router and API client; only fetch is faked.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/Parley:ada%40hill.test?secret=${SECRET}&issuer=Parley`;
const CODES = Array.from({ length: 10 }, (_, i) => `abc${i}-defg-hjkm`);
const OFF: TwoFactorStatus = {
  available: true,
  enabled: false,
  enabledAt: null,
  enabledAtLabel: null,
  recoveryCodesLeft: 0,
};
const ON: TwoFactorStatus = {
  available: true,
  enabled: true,
  enabledAt: '2031-03-04T10:00:00.000Z',
  enabledAtLabel: 'Tue 4 Mar 2031',
  recoveryCodesLeft: 10,
};

const session = (id: number, device: string, current: boolean, minutesAgo: number): SessionItem => ({
  id,
  device,
  userAgent: `${device} agent`,
  ip: `10.0.0.${id}`,
  signedInAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
  lastActiveAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  current,
});

const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;
const bodyOf = (path: string) =>
  JSON.parse(String(requests.filter((request) => request.path === path).at(-1)?.init.body ?? 'null'));
/** The profile page loads lazily: the first screen of a file may take longer than findBy's second. */
const LAZY = { timeout: 5000 };
const calls = (path: string) => requests.filter((request) => request.path === path).length;

function type(scope: HTMLElement, label: string, value: string) {
  const input = within(scope).getByLabelText(label) as HTMLInputElement;
  fireEvent.change(input, { target: { value } });
  return input;
}

function signIn(user: Record<string, unknown> = adminUser) {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
  reloadSession();
}

let status: TwoFactorStatus;
let sessions: SessionItem[];

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  requests = [];
  status = OFF;
  sessions = [session(1, 'Chrome on Linux', true, 0), session(2, 'Safari on iPhone', false, 90)];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/users/data': () => json(200, adminUser),
    '/api/users/view': () => json(200, adminUser),
    '/api/user/two-factor': () => json(200, status),
    '/api/user/sessions': () => json(200, { items: sessions }),
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  reloadSession();
});

describe('two-factor sign-in on the profile', { timeout: 20_000 }, () => {
  it('an admin turns it on: QR code and key, a current code, then the recovery codes once', async () => {
    routes['/api/user/start-two-factor'] = () => json(200, { secret: SECRET, otpauthUri: URI });
    routes['/api/user/confirm-two-factor'] = () => {
      status = { ...ON, enabledAt: '2031-03-05T10:00:00.000Z', enabledAtLabel: 'Wed 5 Mar 2031' };
      return json(200, { message: SERVER_TEXT.twoFactorOn, recoveryCodes: CODES });
    };
    signIn();
    renderAt('/profile');
    fireEvent.click(await screen.findByRole('button', { name: TWO_FACTOR_TEXT.turnOn }, LAZY));

    const dialog = await screen.findByRole('dialog', { name: TWO_FACTOR_TEXT.setUpTitle });
    const qr = within(dialog).getByRole('img', { name: TWO_FACTOR_TEXT.qrLabel });
    expect(qr.getAttribute('data-qr-text')).toBe(URI);
    expect(within(dialog).getByText(groupedSecret(SECRET))).toBeTruthy();
    const turnOn = within(dialog).getByRole('button', { name: TWO_FACTOR_TEXT.confirm });
    type(dialog, TWO_FACTOR_TEXT.code, '12345');
    expect(isDisabled(turnOn)).toBe(true);
    type(dialog, TWO_FACTOR_TEXT.code, '123456');
    expect(isDisabled(turnOn)).toBe(false);
    fireEvent.click(turnOn);

    const codes = await screen.findByRole('dialog', { name: TWO_FACTOR_TEXT.codesTitle });
    const list = within(codes).getByRole('list', { name: TWO_FACTOR_TEXT.codesLabel });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(bodyOf('/api/user/confirm-two-factor')).toEqual({ code: '123456' });
    fireEvent.click(within(codes).getByRole('button', { name: TWO_FACTOR_TEXT.saved }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(TWO_FACTOR_TEXT.onHelp('Wed 5 Mar 2031', 10))).toBeTruthy();
  });

  it('a wrong confirmation code shows on the field and the dialog stays', async () => {
    routes['/api/user/start-two-factor'] = () => json(200, { secret: SECRET, otpauthUri: URI });
    routes['/api/user/confirm-two-factor'] = () =>
      json(422, {
        message: SERVER_TEXT.secondFactorWrong,
        errors: { code: [SERVER_TEXT.secondFactorWrong] },
      });
    signIn();
    renderAt('/profile');
    fireEvent.click(await screen.findByRole('button', { name: TWO_FACTOR_TEXT.turnOn }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: TWO_FACTOR_TEXT.setUpTitle });
    type(dialog, TWO_FACTOR_TEXT.code, '000000');
    fireEvent.click(within(dialog).getByRole('button', { name: TWO_FACTOR_TEXT.confirm }));
    expect(await within(dialog).findByText(SERVER_TEXT.secondFactorWrong)).toBeTruthy();
  });

  it('when on: turning off asks for a code or the password and sends the right field', async () => {
    status = ON;
    routes['/api/user/turn-off-two-factor'] = (_url, init) => {
      const body = JSON.parse(String(init.body));
      if (body.password === 'wrong one!')
        return json(422, {
          message: SERVER_TEXT.wrongPassword,
          errors: { password: [SERVER_TEXT.wrongPassword] },
        });
      status = OFF;
      return json(200, { message: SERVER_TEXT.twoFactorOff });
    };
    signIn();
    renderAt('/profile');
    expect(await screen.findByText(TWO_FACTOR_TEXT.onHelp('Tue 4 Mar 2031', 10), {}, LAZY)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: TWO_FACTOR_TEXT.turnOff }));
    const dialog = await screen.findByRole('dialog', { name: TWO_FACTOR_TEXT.proofTitleOff });
    type(dialog, TWO_FACTOR_TEXT.proofLabel, 'wrong one!');
    fireEvent.click(within(dialog).getByRole('button', { name: TWO_FACTOR_TEXT.turnOff }));
    expect(await within(dialog).findByText(SERVER_TEXT.wrongPassword)).toBeTruthy();
    type(dialog, TWO_FACTOR_TEXT.proofLabel, '654 321');
    fireEvent.click(within(dialog).getByRole('button', { name: TWO_FACTOR_TEXT.turnOff }));
    expect(await screen.findByText(TWO_FACTOR_TEXT.offHelp)).toBeTruthy();
    expect(bodyOf('/api/user/turn-off-two-factor')).toEqual({ code: '654321' });
  });

  it('is not offered to someone who may not turn it on', async () => {
    status = { ...OFF, available: false };
    signIn({ ...adminUser, roles: ['teacher'], role: 'teacher', isAdmin: false, iAmAdmin: false });
    renderAt('/profile');
    expect(await screen.findByRole('list', { name: SESSIONS_TEXT.title }, LAZY)).toBeTruthy();
    expect(calls('/api/user/two-factor')).toBe(1);
    expect(screen.queryByText(TWO_FACTOR_TEXT.title)).toBeNull();
  });
});

describe('signed-in sessions on the profile', { timeout: 20_000 }, () => {
  it('lists the sessions with this device marked, ends one, then all the others', async () => {
    routes['/api/user/end-session'] = (_url, init) => {
      const { id } = JSON.parse(String(init.body));
      sessions = sessions.filter((item) => item.id !== id);
      return json(200, { message: SERVER_TEXT.sessionEnded, ended: 1 });
    };
    routes['/api/user/end-other-sessions'] = () => {
      const ended = sessions.filter((item) => !item.current).length;
      sessions = sessions.filter((item) => item.current);
      return json(200, { message: SERVER_TEXT.otherSessionsEnded(ended), ended });
    };
    sessions.push(session(3, 'Firefox on Windows', false, 5));
    signIn();
    renderAt('/profile');
    const list = await screen.findByRole('list', { name: SESSIONS_TEXT.title }, LAZY);
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent?.split('Signed in')[0])).toEqual([
      `Chrome on Linux`,
      `Firefox on Windows`,
      `Safari on iPhone`,
    ]);
    expect(within(rows[0] as HTMLElement).getByText(SESSIONS_TEXT.thisDevice)).toBeTruthy();
    expect(rows[2]?.textContent).toContain('Signed in 3 days ago from 10.0.0.2');
    expect(rows[2]?.textContent).toContain('Last active 1 hour ago');

    fireEvent.click(within(list).getByRole('button', { name: SESSIONS_TEXT.endLabel('Safari on iPhone') }));
    await waitFor(() => expect(within(list).queryByText('Safari on iPhone')).toBeNull());
    expect(bodyOf('/api/user/end-session')).toEqual({ id: 2 });
    expect(await screen.findByText(SERVER_TEXT.sessionEnded)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: SESSIONS_TEXT.endOthers }));
    const confirm = await screen.findByRole('dialog', { name: SESSIONS_TEXT.endOthersTitle });
    fireEvent.click(within(confirm).getByRole('button', { name: SESSIONS_TEXT.endOthers }));
    expect(await screen.findByText(SESSIONS_TEXT.onlyThis)).toBeTruthy();
    expect(calls('/api/user/end-other-sessions')).toBe(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: SESSIONS_TEXT.endOthers })).toBeNull());
  });
});

describe('security helpers', () => {
  it('reads six digits as a code and anything else as the password', () => {
    expect(proofOf('123456')).toEqual({ code: '123456' });
    expect(proofOf(' 123 456 ')).toEqual({ code: '123456' });
    expect(proofOf('1234567890')).toEqual({ password: '1234567890' });
    expect(proofOf('my secret')).toEqual({ password: 'my secret' });
  });

  it('groups the key by four, lists codes one a line and puts this device first', () => {
    expect(groupedSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(recoveryCodesText(['a', 'b'])).toBe('a\nb\n');
    const sorted = sortSessions([
      session(1, 'old', false, 60),
      session(2, 'here', true, 30),
      session(3, 'new', false, 1),
    ]);
    expect(sorted.map((item) => item.device)).toEqual(['here', 'new', 'old']);
  });
});
