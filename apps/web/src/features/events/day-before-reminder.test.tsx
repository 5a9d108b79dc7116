import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnackbarProvider } from '../../components/snackbar';
import { json, type RecordedRequest, stubFetch } from '../../test-support/screen-fixtures';
import { EventDetailsCard } from './components/event-details-card';
import { DAY_BEFORE_REMINDER_TEXT } from './day-before-reminder-text';
import { eventDetail } from './event-fixtures';

// The event's day-before reminder switch (issue 40): it shows the stored choice and saves a change
// through events/update, as the card's other settings do.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderCard(dayBeforeReminder: boolean) {
  const requests: RecordedRequest[] = [];
  stubFetch(
    (path) =>
      path === '/api/events/update' ? () => json(200, { id: 12, message: 'Event updated.' }) : undefined,
    () => requests,
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SnackbarProvider>
          <EventDetailsCard event={eventDetail({ id: 12, dayBeforeReminder })} eventTypes={[]} />
        </SnackbarProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const toggle = screen.getByRole('switch', { name: DAY_BEFORE_REMINDER_TEXT.label }) as HTMLInputElement;
  return { requests, toggle };
}

describe('day-before reminder switch', () => {
  it('shows the event’s choice, with what it does', () => {
    const on = renderCard(true);
    expect(on.toggle.checked).toBe(true);
    expect(screen.getByText(DAY_BEFORE_REMINDER_TEXT.help)).toBeTruthy();
    cleanup();
    const off = renderCard(false);
    expect(off.toggle.checked).toBe(false);
  });

  it('sends { dayBeforeReminder: false } to events/update when turned off, and says it was saved', async () => {
    const { requests, toggle } = renderCard(true);
    fireEvent.click(toggle);
    expect(await screen.findByText('Event updated.')).toBeTruthy();
    const saves = requests.filter((request) => request.path.startsWith('/api/events/update?'));
    expect(saves.map((request) => request.path)).toEqual(['/api/events/update?id=12']);
    expect(JSON.parse(String(saves[0]?.init.body))).toEqual({ dayBeforeReminder: false });
    await waitFor(() => expect(toggle.disabled).toBe(false));
  });

  it('sends { dayBeforeReminder: true } when turned on', async () => {
    const { requests, toggle } = renderCard(false);
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(requests.some((request) => request.path === '/api/events/update?id=12')).toBe(true),
    );
    const save = requests.find((request) => request.path === '/api/events/update?id=12');
    expect(JSON.parse(String(save?.init.body))).toEqual({ dayBeforeReminder: true });
  });
});
