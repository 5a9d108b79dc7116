import type { HomeData } from '@parley/domain/home';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyHomeData } from '../../test-support/screen-fixtures';
import { AdminHome } from './components/admin-home';
import { HOME_PULL_THRESHOLD, HOME_REFRESH_WAIT_MS, homeTiles, showsSampleBanner } from './home-logic';

const BANNER = 'New account signups include sample events. You can customize as desired.';

const data: HomeData = {
  ...emptyHomeData,
  eventsCount: 4,
  teachersCount: 12,
  parentsCount: 30,
  studentsCount: 25,
  activeEvents: [{ id: 7, name: 'Spring evening', bookingCountForEvent: 3, timeToEvent: 'in 3 days' }],
};

const renderHome = (loginCount: number) =>
  render(
    <MemoryRouter>
      <AdminHome data={data} loginCount={loginCount} onRefresh={async () => {}} refreshing={false} />
    </MemoryRouter>,
  );

afterEach(cleanup);

describe('home rules (spec §2 Home, §9)', () => {
  it('shows the sample-events banner while loginCount is below 5', () => {
    expect(showsSampleBanner(0)).toBe(true);
    expect(showsSampleBanner(4)).toBe(true);
    expect(showsSampleBanner(5)).toBe(false);
    expect(showsSampleBanner(12)).toBe(false);
    expect(showsSampleBanner(undefined)).toBe(false);
  });

  it('uses the home constants: pull threshold 192, refresh wait 2 s', () => {
    expect(HOME_PULL_THRESHOLD).toBe(192);
    expect(HOME_REFRESH_WAIT_MS).toBe(2000);
  });

  it('lists the four tiles in order', () => {
    expect(homeTiles(data)).toEqual([
      { key: 'events', count: 4 },
      { key: 'teachers', count: 12 },
      { key: 'parents', count: 30 },
      { key: 'students', count: 25 },
    ]);
    expect(homeTiles(undefined).every((tile) => tile.count === null)).toBe(true);
  });
});

describe('admin home', () => {
  it('shows four count tiles linking to the lists', () => {
    renderHome(7);
    const tiles = within(screen.getByRole('list', { name: 'Counts' })).getAllByRole('link');
    expect(tiles.map((tile) => tile.getAttribute('href'))).toEqual([
      '/events',
      '/teachers',
      '/parents',
      '/students',
    ]);
    expect(tiles.map((tile) => tile.textContent)).toEqual([
      'Events4',
      'Teachers12',
      'Parents30',
      'Students25',
    ]);
  });

  it('lists active events with booking count and time to event, opening events.view', () => {
    renderHome(7);
    const link = within(screen.getByRole('list', { name: 'Event Bookings' })).getByRole('link');
    expect(link.getAttribute('href')).toBe('/events/view/7');
    expect(link.textContent).toContain('Spring evening');
    expect(link.textContent).toContain('in 3 days');
    expect(link.textContent).toContain('3 bookings');
    expect(screen.getByText('Click menu above to add events, subjects or users.')).toBeTruthy();
  });

  it('shows the closable banner while loginCount < 5 and not after', () => {
    renderHome(4);
    expect(screen.getByText(BANNER)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText(BANNER)).toBeNull();
    cleanup();
    renderHome(5);
    expect(screen.queryByText(BANNER)).toBeNull();
  });
});
