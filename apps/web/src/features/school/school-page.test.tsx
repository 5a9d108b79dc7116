import { STORAGE_KEYS } from '@parley/domain/constants';
import type { SchoolProfile } from '@parley/domain/school';
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
import { REMINDER_TIME_TEXT } from './school-text';

// The school page's reminder time (issue 40) through the real router, form and API client, with only
// fetch faked.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const profile = (over: Partial<SchoolProfile> = {}): SchoolProfile => ({
  id: 3,
  name: 'Hill School',
  timezone: 'Europe/London',
  reminderTime: '19:30',
  address: null,
  contactEmail: null,
  phone: null,
  website: null,
  verified: true,
  ...over,
});

const saves = () => requests.filter((request) => request.path === '/api/site/update-school');
const bodyOfLastSave = () => JSON.parse(String(saves().at(-1)?.init.body));

async function reminderField() {
  return (await screen.findByLabelText(
    REMINDER_TIME_TEXT.label,
    {},
    { timeout: 10_000 },
  )) as HTMLInputElement;
}

/** The text tied to a field (its helper or its error), as a screen reader announces it. */
const descriptionOf = (input: HTMLInputElement) =>
  document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;

function typeTime(input: HTMLInputElement, value: string) {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-admin');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
  queryClient.clear();
  requests = [];
  routes = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/site/index': () => json(200, { subscriberName: 'Hill School', viewAsSelectorItems: [] }),
    '/api/site/school': () => json(200, profile()),
    '/api/site/update-school': (_url, init) => json(200, profile(JSON.parse(String(init.body)))),
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

describe('the school page: day-before reminder time (issue 40)', { timeout: 20_000 }, () => {
  it('shows the stored time on the 24-hour clock, with what it is for', async () => {
    renderAt('/school');
    const input = await reminderField();
    expect(input.value).toBe('19:30');
    expect(input.type).toBe('text');
    expect(input.placeholder).toBe('HH:MM');
    expect(descriptionOf(input)).toBe(REMINDER_TIME_TEXT.help);
  });

  it('sends a changed time, tidied to HH:MM, with the rest of the profile', async () => {
    renderAt('/school');
    const input = await reminderField();
    typeTime(input, '1745');
    expect(input.value).toBe('17:45');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    expect(await screen.findByText('School details saved.')).toBeTruthy();
    expect(bodyOfLastSave()).toEqual({
      name: 'Hill School',
      timezone: 'Europe/London',
      reminderTime: '17:45',
      address: null,
      contactEmail: null,
      phone: null,
      website: null,
    });
    expect(input.value).toBe('17:45');
  });

  it('refuses a text that is no time before sending anything, with the message under the field', async () => {
    renderAt('/school');
    const input = await reminderField();
    typeTime(input, '25:00');
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(input)).toBe('Must be a time like 18:00');
    expect(input.value).toBe('25:00');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(saves()).toEqual([]);
  });

  it('shows the server’s field error under the field and keeps everything typed', async () => {
    routes['/api/site/update-school'] = () =>
      json(422, {
        message: 'Invalid input.',
        errors: { reminderTime: ['Pick a time between 06:00 and 22:00'] },
      });
    renderAt('/school');
    const input = await reminderField();
    typeTime(input, '23:30');
    const phone = screen.getByLabelText('Phone') as HTMLInputElement;
    fireEvent.change(phone, { target: { value: '01234 567890' } });
    fireEvent.blur(phone);
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(descriptionOf(input)).toBe('Pick a time between 06:00 and 22:00'));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(bodyOfLastSave()).toMatchObject({ reminderTime: '23:30', phone: '01234 567890' });
    expect(input.value).toBe('23:30');
    expect(phone.value).toBe('01234 567890');
  });
});
