import { STORAGE_KEYS } from '@parley/domain/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addEventToCalendar,
  deepLinkHosts,
  deepLinkTarget,
  handleBackButton,
  headerOffsetPx,
  installNativeShell,
  isInDeviceCalendar,
  isNative,
  nativePlatform,
  registerNativePushToken,
} from './native';

// The native module in a plain browser: the real @capacitor/core (it reports "web" in jsdom), nothing
// replaced but fetch, and the app and push plugins, which only record what is asked of them (a listener
// added here would be a native one the browser never needs). Also the pure deep link and back button
// handlers, with their inputs.

const asked = vi.hoisted(() => ({ calls: [] as string[] }));
vi.mock('@capacitor/app', () => ({
  App: { addListener: (event: string) => asked.calls.push(`App.${event}`) },
}));
vi.mock('@capacitor/push-notifications', () => ({
  PushNotifications: { addListener: (event: string) => asked.calls.push(`PushNotifications.${event}`) },
}));

const spring = { id: 5, name: 'Spring evening', eventDate: '2026-03-12T16:00:00.000Z', location: null };

describe('in a browser (web fallback)', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is not native: web platform, no header offset', () => {
    expect(isNative()).toBe(false);
    expect(nativePlatform()).toBe('web');
    expect(headerOffsetPx()).toBe(0);
  });

  it('installs no listeners (back button, links, pushes) and navigates or refreshes nothing', () => {
    asked.calls.length = 0;
    const navigate = vi.fn();
    const refreshHome = vi.fn();
    const cleanup = installNativeShell({ navigate, refreshHome, hosts: ['parley.example.com'] });
    cleanup();
    expect(asked.calls).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
    expect(refreshHome).not.toHaveBeenCalled();
  });

  it('"Add to Calendar" downloads the server .ics for the event', async () => {
    fetchMock.mockResolvedValue(
      new Response('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', {
        headers: {
          'Content-Type': 'text/calendar',
          'Content-Disposition': 'attachment; filename="spring.ics"',
        },
      }),
    );
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    expect(await addEventToCalendar(spring)).toEqual({ status: 'downloaded' });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/events/calendar-file?eventId=5');
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('a failed download is "Failed to add event to calendar" (or the server message)', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{}', { status: 500 }));
    expect(await addEventToCalendar(spring)).toEqual({
      status: 'failed',
      message: 'Failed to add event to calendar',
    });
    fetchMock.mockResolvedValueOnce(Response.json({ message: 'Event not found' }, { status: 404 }));
    expect(await addEventToCalendar(spring)).toEqual({ status: 'failed', message: 'Event not found' });
  });

  it('cannot read a device calendar, registers no push token', async () => {
    expect(await isInDeviceCalendar(spring)).toBe(false);
    expect(await registerNativePushToken(21)).toBe('not-native');
    expect(localStorage.getItem(STORAGE_KEYS.deviceTokenRegistered)).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('deep links (spec §2: path, query and hash of the link that opened the app)', () => {
  const hosts = ['parley.example.com'];

  it('the custom scheme, with or without an empty host', () => {
    expect(deepLinkTarget('app.parley.mobile://book/event/AB12?ref=mail#slots', hosts)).toBe(
      '/book/event/AB12?ref=mail#slots',
    );
    expect(deepLinkTarget('app.parley.mobile:///book/ptevent/XY9', hosts)).toBe('/book/ptevent/XY9');
    expect(deepLinkTarget('app.parley.mobile://home', hosts)).toBe('/home');
  });

  it('https links of our host: booking, ticket, invitation', () => {
    expect(deepLinkTarget('https://parley.example.com/book/event/AB12?x=1#top', hosts)).toBe(
      '/book/event/AB12?x=1#top',
    );
    expect(deepLinkTarget('https://PARLEY.example.com/accept-parent-invite?token=abc', hosts)).toBe(
      '/accept-parent-invite?token=abc',
    );
    expect(deepLinkTarget('https://parley.example.com/tickets/T-1', hosts)).toBe('/tickets/T-1');
    expect(deepLinkTarget('https://parley.example.com', hosts)).toBe('/');
  });

  it('ignores foreign hosts, other schemes and garbage', () => {
    expect(deepLinkTarget('https://evil.example.net/book/event/AB12', hosts)).toBeNull();
    expect(deepLinkTarget('https://parley.example.com.evil.net/home', hosts)).toBeNull();
    expect(deepLinkTarget('http://parley.example.com/home', hosts)).toBeNull();
    expect(deepLinkTarget('javascript:alert(1)', hosts)).toBeNull();
    expect(deepLinkTarget('not a url', hosts)).toBeNull();
    expect(deepLinkTarget('https://parley.example.com/home', [])).toBeNull();
  });

  it('never yields a protocol-relative path', () => {
    expect(deepLinkTarget('app.parley.mobile:////evil.net/x', hosts)).toBe('/evil.net/x');
    expect(deepLinkTarget('https://parley.example.com//evil.net/x', hosts)).toBe('/evil.net/x');
  });

  it('hosts come from a comma-separated build setting', () => {
    expect(deepLinkHosts(' Parley.example.com, school.example.org ,')).toEqual([
      'parley.example.com',
      'school.example.org',
    ]);
    expect(deepLinkHosts(undefined)).toEqual([]);
  });
});

describe('Android back button (spec §2)', () => {
  it('goes back in history while there is history', () => {
    const actions = { back: vi.fn(), exit: vi.fn() };
    handleBackButton(true, actions);
    expect(actions.back).toHaveBeenCalledTimes(1);
    expect(actions.exit).not.toHaveBeenCalled();
  });

  it('at the root leaves the app instead of doing nothing', () => {
    const actions = { back: vi.fn(), exit: vi.fn() };
    handleBackButton(false, actions);
    expect(actions.exit).toHaveBeenCalledTimes(1);
    expect(actions.back).not.toHaveBeenCalled();
  });
});
