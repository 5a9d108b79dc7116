import { STORAGE_KEYS } from '@parley/domain/constants';
import { PUSH_ACTIONS } from '@parley/domain/push';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminUser } from '../test-support/screen-fixtures';
import { reloadSession } from './session';

// The native module on a device: the Capacitor plugins are replaced at the module boundary (vi.mock of
// their packages) and record what the app asks of them; everything inside native.ts runs for real.

const plugin = vi.hoisted(() => {
  type Handler = (event: never) => void;
  const listeners = new Map<string, Handler>();
  const removed: string[] = [];
  const addListener = (name: string, handler: Handler) => {
    listeners.set(name, handler);
    return Promise.resolve({ remove: async () => void removed.push(name) });
  };
  return {
    platform: 'android' as 'android' | 'ios',
    listeners,
    removed,
    emit: (name: string, event: unknown) =>
      (listeners.get(name) as ((e: unknown) => void) | undefined)?.(event),
    App: { addListener: vi.fn(addListener), exitApp: vi.fn(async () => {}) },
    StatusBar: { setStyle: vi.fn(async () => {}), setBackgroundColor: vi.fn(async () => {}) },
    Calendar: {
      requestWriteOnlyCalendarAccess: vi.fn(async () => ({ result: 'granted' })),
      checkPermission: vi.fn(async (_options: { scope: string }) => ({ result: 'granted' })),
      listEventsInRange: vi.fn(async (_range: { from: number; to: number }) => ({
        result: [] as { title: string }[],
      })),
      createEvent: vi.fn(async (_options: Record<string, unknown>) => ({ id: '1' })),
    },
    Push: {
      addListener: vi.fn(addListener),
      checkPermissions: vi.fn(async () => ({ receive: 'prompt' })),
      requestPermissions: vi.fn(async () => ({ receive: 'granted' })),
      register: vi.fn(async () => {}),
    },
  };
});

vi.mock('@capacitor/core', () => ({
  Capacitor: { isNativePlatform: () => true, getPlatform: () => plugin.platform },
}));
vi.mock('@capacitor/app', () => ({ App: plugin.App }));
vi.mock('@capacitor/status-bar', () => ({ StatusBar: plugin.StatusBar, Style: { Dark: 'DARK' } }));
vi.mock('@capacitor/push-notifications', () => ({ PushNotifications: plugin.Push }));
vi.mock('@ebarooni/capacitor-calendar', () => ({
  CapacitorCalendar: plugin.Calendar,
  CalendarPermissionScope: { READ_CALENDAR: 'readCalendar', WRITE_CALENDAR: 'writeCalendar' },
}));

const native = await import('./native');

const spring = { id: 5, name: 'Spring evening', eventDate: '2026-03-12T16:00:00.000Z', location: null };
const start = Date.parse('2026-03-12T16:00:00.000Z');

beforeEach(() => {
  vi.clearAllMocks();
  plugin.listeners.clear();
  plugin.removed.length = 0;
  plugin.platform = 'android';
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('on a device', () => {
  it('is native, with the 34 px header offset of spec §9', () => {
    expect(native.isNative()).toBe(true);
    expect(native.nativePlatform()).toBe('android');
    expect(native.headerOffsetPx()).toBe(34);
  });
});

describe('installNativeShell: back button, deep links, status bar', () => {
  it('back button: history back while there is history, else leaves the app', () => {
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    native.installNativeShell({ navigate: vi.fn(), refreshHome: vi.fn(), hosts: [] });
    plugin.emit('backButton', { canGoBack: true });
    expect(back).toHaveBeenCalledTimes(1);
    expect(plugin.App.exitApp).not.toHaveBeenCalled();
    plugin.emit('backButton', { canGoBack: false });
    expect(plugin.App.exitApp).toHaveBeenCalledTimes(1);
    expect(back).toHaveBeenCalledTimes(1);
  });

  it('a link that opens the app navigates to its path, query and hash; a foreign one does nothing', () => {
    const navigate = vi.fn();
    native.installNativeShell({ navigate, refreshHome: vi.fn(), hosts: ['parley.example.com'] });
    plugin.emit('appUrlOpen', { url: 'https://parley.example.com/book/ptevent/AB12?ref=mail#times' });
    plugin.emit('appUrlOpen', { url: 'app.parley.mobile://tickets/T-9' });
    plugin.emit('appUrlOpen', { url: 'https://elsewhere.example.net/book/ptevent/AB12' });
    expect(navigate.mock.calls).toEqual([['/book/ptevent/AB12?ref=mail#times'], ['/tickets/T-9']]);
  });

  it('Android: dark status bar style on black (spec §9); iOS: the style only', async () => {
    native.installNativeShell({ navigate: vi.fn(), refreshHome: vi.fn(), hosts: [] });
    await vi.waitFor(() =>
      expect(plugin.StatusBar.setBackgroundColor).toHaveBeenCalledWith({ color: '#000000' }),
    );
    expect(plugin.StatusBar.setStyle).toHaveBeenCalledWith({ style: 'DARK' });
    vi.clearAllMocks();
    plugin.platform = 'ios';
    await native.applyNativeChrome();
    expect(plugin.StatusBar.setStyle).toHaveBeenCalledWith({ style: 'DARK' });
    expect(plugin.StatusBar.setBackgroundColor).not.toHaveBeenCalled();
  });

  it('the cleanup removes every listener it added, the push ones too', async () => {
    native.installNativeShell({ navigate: vi.fn(), refreshHome: vi.fn(), hosts: [] })();
    await vi.waitFor(() =>
      expect(plugin.removed.sort()).toEqual([
        'appUrlOpen',
        'backButton',
        'pushNotificationActionPerformed',
        'pushNotificationReceived',
      ]),
    );
  });
});

describe('device calendar (spec §3 payload, §6 write-only, §8 texts, §9 constants)', () => {
  it('asks write-only access, checks the whole day, then creates the 2-hour event with a 1-day alert', async () => {
    expect(await native.addEventToCalendar(spring)).toEqual({ status: 'added' });
    expect(plugin.Calendar.requestWriteOnlyCalendarAccess).toHaveBeenCalledTimes(1);
    expect(plugin.Calendar.listEventsInRange).toHaveBeenCalledWith({
      from: Date.parse('2026-03-12T00:00:00.000Z'),
      to: Date.parse('2026-03-12T23:59:59.999Z'),
    });
    expect(plugin.Calendar.createEvent).toHaveBeenCalledWith({
      title: 'Spring evening',
      location: 'School',
      description: 'School meeting event: Spring evening',
      startDate: start,
      endDate: start + 2 * 3600_000,
      isAllDay: false,
      alerts: [1440],
    });
  });

  it('iOS counts alert offsets after the start: the 1-day-before alert is -1440 there', async () => {
    plugin.platform = 'ios';
    await native.addEventToCalendar({ ...spring, location: 'Main hall' });
    expect(plugin.Calendar.createEvent.mock.calls[0]?.[0]).toMatchObject({
      location: 'Main hall',
      alerts: [-1440],
    });
  });

  it('an event already in the calendar (title containing the name) is not added twice', async () => {
    plugin.Calendar.listEventsInRange.mockResolvedValueOnce({
      result: [{ title: 'Hill School – Spring evening' }],
    });
    expect(await native.addEventToCalendar(spring)).toEqual({ status: 'exists' });
    expect(plugin.Calendar.createEvent).not.toHaveBeenCalled();
  });

  it('permission refused: the §8 text, nothing written', async () => {
    plugin.Calendar.requestWriteOnlyCalendarAccess.mockResolvedValueOnce({ result: 'denied' });
    expect(await native.addEventToCalendar(spring)).toEqual({
      status: 'denied',
      message: 'Calendar permission denied. Please enable calendar access in your device settings.',
    });
    expect(plugin.Calendar.createEvent).not.toHaveBeenCalled();
  });

  it('a plugin failure or a missing date: "Failed to add event to calendar"', async () => {
    plugin.Calendar.createEvent.mockRejectedValueOnce(new Error('no calendar'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failed = { status: 'failed', message: 'Failed to add event to calendar' };
    expect(await native.addEventToCalendar(spring)).toEqual(failed);
    expect(await native.addEventToCalendar({ ...spring, eventDate: null })).toEqual(failed);
  });

  it('without read access the existence check answers false without reading, and the add goes on', async () => {
    plugin.Calendar.checkPermission.mockResolvedValue({ result: 'prompt' });
    expect(await native.isInDeviceCalendar(spring)).toBe(false);
    expect(await native.addEventToCalendar(spring)).toEqual({ status: 'added' });
    expect(plugin.Calendar.checkPermission).toHaveBeenCalledWith({ scope: 'readCalendar' });
    expect(plugin.Calendar.listEventsInRange).not.toHaveBeenCalled();
    plugin.Calendar.checkPermission.mockResolvedValue({ result: 'granted' });
  });

  it('isInDeviceCalendar: another event that day does not count, a matching title does', async () => {
    plugin.Calendar.listEventsInRange.mockResolvedValueOnce({ result: [{ title: 'Dentist' }] });
    expect(await native.isInDeviceCalendar(spring)).toBe(false);
    plugin.Calendar.listEventsInRange.mockResolvedValueOnce({ result: [{ title: 'Spring evening' }] });
    expect(await native.isInDeviceCalendar(spring)).toBe(true);
  });
});

describe('native push token (users/register-token, deviceTokenRegistered)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    fetchMock.mockResolvedValue(Response.json({ message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    plugin.Push.register.mockImplementation(async () => {
      queueMicrotask(() => plugin.emit('registration', { value: 'fcm-token-1' }));
    });
  });

  it('asks permission, registers, stores the token on the account once per user', async () => {
    expect(await native.registerNativePushToken(21)).toBe('registered');
    expect(plugin.Push.requestPermissions).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/users/register-token?id=21');
    expect(init?.method).toBe('POST');
    // The platform names the push service (Android: FCM; an iPhone's token goes to APNs).
    expect(JSON.parse(String(init?.body))).toEqual({ deviceToken: 'fcm-token-1', platform: 'android' });
    expect(localStorage.getItem(STORAGE_KEYS.deviceTokenRegistered)).toBe('21');

    expect(await native.registerNativePushToken(21)).toBe('already-registered');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(await native.registerNativePushToken(22)).toBe('registered');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('refused permission or a registration error: only logged, nothing stored (spec §8)', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    plugin.Push.requestPermissions.mockResolvedValueOnce({ receive: 'denied' });
    expect(await native.registerNativePushToken(21)).toBe('denied');
    plugin.Push.register.mockImplementationOnce(async () => {
      queueMicrotask(() => plugin.emit('registrationError', { error: 'no FCM config' }));
    });
    expect(await native.registerNativePushToken(21)).toBe('failed');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.deviceTokenRegistered)).toBeNull();
  });

  it('installNativeShell registers the token for the signed-in user, and again after another login', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
    localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify({ ...adminUser, id: 31 }));
    reloadSession();
    const stop = native.installNativeShell({ navigate: vi.fn(), refreshHome: vi.fn(), hosts: [] });
    await vi.waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.deviceTokenRegistered)).toBe('31'));
    localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify({ ...adminUser, id: 32 }));
    reloadSession();
    await vi.waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.deviceTokenRegistered)).toBe('32'));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      '/api/users/register-token?id=31',
      '/api/users/register-token?id=32',
    ]);
    stop();
    localStorage.clear();
    reloadSession();
  });
});

describe('native pushes (FCM, APNs): handled as Web Push is (spec §3/§4)', () => {
  function shell() {
    const navigate = vi.fn();
    const refreshHome = vi.fn();
    native.installNativeShell({ navigate, refreshHome, hosts: [] });
    return { navigate, refreshHome };
  }
  // As the plugin gives them: Android's FCM data map, and iOS's APNs payload (custom keys beside aps).
  const received = (data: unknown) =>
    plugin.emit('pushNotificationReceived', { id: '1', title: 'Parley', body: 'Booked', data });
  const tapped = (data: unknown) =>
    plugin.emit('pushNotificationActionPerformed', { actionId: 'tap', notification: { id: '1', data } });

  it.each(PUSH_ACTIONS)('%s received in the foreground refreshes home and navigates nowhere', (action) => {
    const { navigate, refreshHome } = shell();
    received({ action, url: '/book/event/AB12' });
    expect(refreshHome).toHaveBeenCalledTimes(1);
    received({ aps: { alert: { title: 'Parley', body: 'Booked' } }, action, url: '/home' });
    expect(refreshHome).toHaveBeenCalledTimes(2);
    expect(navigate).not.toHaveBeenCalled();
  });

  it.each(PUSH_ACTIONS)('%s tapped opens its page and refreshes home', (action) => {
    const { navigate, refreshHome } = shell();
    tapped({ action, title: 'Parley', body: 'Booked', url: '/book/ptevent/AB12?slot=3#times' });
    expect(navigate.mock.calls).toEqual([['/book/ptevent/AB12?slot=3#times']]);
    expect(refreshHome).toHaveBeenCalledTimes(1);
  });

  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
    'book/event/AB12',
    '',
    undefined,
  ])('a tapped push with the url %j opens home, never another site', (url) => {
    const { navigate, refreshHome } = shell();
    tapped({ action: 'booking', url });
    expect(navigate.mock.calls).toEqual([['/home']]);
    expect(refreshHome).toHaveBeenCalledTimes(1);
  });

  it('a push that is not ours (no known action) does nothing, received or tapped', () => {
    const { navigate, refreshHome } = shell();
    for (const data of [
      undefined,
      null,
      'refresh_home',
      {},
      { url: '/home' },
      { action: 'hello', url: '/home' },
      { action: 'toString', url: '/home' },
      { aps: { alert: 'Another app' } },
    ]) {
      received(data);
      tapped(data);
    }
    expect(navigate).not.toHaveBeenCalled();
    expect(refreshHome).not.toHaveBeenCalled();
  });
});
