import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnackbarProvider } from '../../components/snackbar';
import { queryClient } from '../../lib/query-client';
import { json, type RecordedRequest, stubFetch } from '../../test-support/screen-fixtures';
import { RunningLateCard } from './components/running-late-card';
import { isTheNight, RUNNING_LATE_FROM_MS } from './details-logic';

// "Running late?" on the teacher's schedule (issue 41): a tap posts events/running-late with the teacher
// and the minutes, shows the choice at once, and says the families were told.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderCard(
  lateMinutes: number,
  answer = () =>
    json(200, { message: 'Families have been told you are running 10 minutes late.', lateMinutes: 10 }),
) {
  const requests: RecordedRequest[] = [];
  stubFetch(
    (path) => (path === '/api/events/running-late' ? answer : undefined),
    () => requests,
  );
  render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider>
        <RunningLateCard eventId={12} teacherId={7} lateMinutes={lateMinutes} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return requests;
}

describe('the running-late card', () => {
  it('says the teacher is on time, and posts 10 minutes late when tapped', async () => {
    const requests = renderCard(0);
    expect(screen.getByText('You are on time.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'On time' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: '10 min late' }));
    expect(await screen.findByText('Families have been told you are running 10 minutes late.')).toBeTruthy();
    const posts = requests.filter((request) => request.path === '/api/events/running-late');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]?.init.body))).toEqual({ eventId: 12, teacherId: 7, minutes: 10 });
  });

  it('shows the lateness the schedule holds, and the server’s refusal', async () => {
    renderCard(15, () => json(403, { message: 'Only admins can say that another teacher is running late.' }));
    expect(screen.getByText('You are running 15 minutes late.')).toBeTruthy();
    expect(screen.getByRole('button', { name: '15 min late' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'On time' }));
    expect(await screen.findByText('Only admins can say that another teacher is running late.')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('You are running 15 minutes late.')).toBeTruthy());
  });
});

describe('the night', () => {
  const rows = [
    { startsAt: '2026-12-07T16:00:00Z', endsAt: '2026-12-07T16:10:00Z' },
    { startsAt: '2026-12-07T17:50:00Z', endsAt: '2026-12-07T18:00:00Z' },
  ];
  it('runs from two hours before the first time until the last ends', () => {
    const first = Date.parse('2026-12-07T16:00:00Z');
    expect(isTheNight(rows, new Date(first - RUNNING_LATE_FROM_MS - 1))).toBe(false);
    expect(isTheNight(rows, new Date(first - RUNNING_LATE_FROM_MS))).toBe(true);
    expect(isTheNight(rows, new Date('2026-12-07T17:59:59Z'))).toBe(true);
    expect(isTheNight(rows, new Date('2026-12-07T18:00:00Z'))).toBe(false);
    expect(isTheNight([], new Date(first))).toBe(false);
  });
});
