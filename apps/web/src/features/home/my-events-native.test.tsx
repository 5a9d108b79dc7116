import type { CurrentUser } from '@parley/domain/auth';
import type { OpenEventSummaryItem } from '@parley/domain/booking';
import { STORAGE_KEYS } from '@parley/domain/constants';
import type { HomeData } from '@parley/domain/home';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { reloadSession } from '../../lib/session';
import { renderAt } from '../../test-support/render-app';
import {
  adminUser,
  emptyHomeData,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../../test-support/screen-fixtures';

// Home "Add to Calendar" in the native app (spec §2 Home dialog, §4 calendar state, §8 Calendar): the real
// router, providers and native.ts; only the Capacitor packages (module boundary) and fetch are replaced.

const device = vi.hoisted(() => ({
  calendar: {
    requestWriteOnlyCalendarAccess: vi.fn(async () => ({ result: 'granted' })),
    checkPermission: vi.fn(async () => ({ result: 'granted' })),
    listEventsInRange: vi.fn(async () => ({ result: [] as { title: string }[] })),
    createEvent: vi.fn(async (_options: Record<string, unknown>) => ({ id: '1' })),
  },
}));

// The plugins' ES builds register themselves through the real registerPlugin.
vi.mock('@capacitor/core', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@capacitor/core')>()),
  Capacitor: { isNativePlatform: () => true, getPlatform: () => 'android' },
}));
vi.mock('@ebarooni/capacitor-calendar', () => ({
  CapacitorCalendar: device.calendar,
  CalendarPermissionScope: { READ_CALENDAR: 'readCalendar' },
}));

const student: CurrentUser = {
  ...adminUser,
  id: 21,
  fullName: 'Tom Reed',
  role: 'student',
  roles: ['student'],
  clickRole: 'student',
  iAmAdmin: false,
  isAdmin: false,
  isStudent: true,
  loginCount: 9,
};

const spring: OpenEventSummaryItem = {
  id: 5,
  name: 'Spring evening',
  subscriber: 'Hill School',
  statusLabel: { text: 'Enabled', color: 'success' },
  link: '/event/details-student?eventId=5',
  bookingLink: '/book/ptevent/ABC123',
  enableTicket: false,
  eventTypeGroupInt: 1,
  iCanScan: false,
  isActive: true,
  isEnabled: true,
  eventDate: '2026-03-12T16:00:00.000Z',
  eventDetails: 'Thu 12 Mar 2026, 16:00 – 19:00',
  location: null,
  calendarStatus: 'notAdded',
  teacherBookingDetails: null,
  parentBookingDetails: null,
  studentBookingDetails: null,
  bookingDetails: 'No bookings found.',
  teacherBookingsCountForEvent: 0,
  parentTimeToBooking: null,
  studentTimeToBooking: null,
  lateNotes: [],
};

const homeData: HomeData = {
  ...emptyHomeData,
  viewAsSelectorItems: [{ value: 'student', label: 'Student' }],
  studentEventsCount: 1,
  studentOpenEventsSummary: [spring],
};

let requests: RecordedRequest[];

function openHome() {
  const routes: Record<string, () => Response> = {
    '/api/site/config': () => json(200, siteConfig),
    '/api/site/index': () => json(200, homeData),
  };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(student));
  reloadSession();
  return renderAt('/home');
}

async function confirmAdd() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add to Calendar' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add to Calendar' });
  expect(within(dialog).queryByText('Calendar access is only available on mobile devices.')).toBeNull();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
}

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
  queryClient.clear();
  requests = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  reloadSession();
});

describe('Add to Calendar on a device', () => {
  it('writes the event to the device calendar, says so, and marks it added', async () => {
    device.calendar.checkPermission.mockResolvedValue({ result: 'denied' });
    openHome();
    await confirmAdd();
    expect(await screen.findByText('Event added to calendar successfully!')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Added to Calendar' })).toBeTruthy();
    expect(device.calendar.createEvent).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Spring evening', location: 'School', alerts: [1440] }),
    );
    expect(requests.some((request) => request.path.startsWith('/api/events/calendar-file'))).toBe(false);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.calendarEvents) ?? '[]')).toEqual([
      { id: 5, name: 'Spring evening' },
    ]);
  });

  it('permission refused: the §8 text, still "Add to Calendar"', async () => {
    device.calendar.checkPermission.mockResolvedValue({ result: 'denied' });
    device.calendar.requestWriteOnlyCalendarAccess.mockResolvedValueOnce({ result: 'denied' });
    openHome();
    await confirmAdd();
    expect(
      await screen.findByText(
        'Calendar permission denied. Please enable calendar access in your device settings.',
      ),
    ).toBeTruthy();
    expect(device.calendar.createEvent).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add to Calendar' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Add to Calendar' })).toBeTruthy();
  });

  it('an event the device calendar already holds shows as added on open (calendarStatus of spec §4)', async () => {
    device.calendar.checkPermission.mockResolvedValue({ result: 'granted' });
    device.calendar.listEventsInRange.mockResolvedValue({
      result: [{ title: 'Spring evening – Hill School' }],
    });
    openHome();
    expect(await screen.findByRole('button', { name: 'Added to Calendar' })).toBeTruthy();
    expect(device.calendar.createEvent).not.toHaveBeenCalled();
  });
});
