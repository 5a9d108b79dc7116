import { App } from '@capacitor/app';
import { Capacitor, type PluginListenerHandle } from '@capacitor/core';
import { PushNotifications } from '@capacitor/push-notifications';
import { StatusBar, Style } from '@capacitor/status-bar';
import { CalendarPermissionScope, CapacitorCalendar } from '@ebarooni/capacitor-calendar';
import { STORAGE_KEYS } from '@parley/domain/constants';
import { api, serverMessage } from './api-client';
import {
  CALENDAR_TEXT,
  type CalendarEventInput,
  calendarEventPayload,
  titleMatches,
  wholeDay,
} from './calendar-event';
import { downloadFile } from './download';
import { readPush } from './push-message';
import { getSession, subscribeSession } from './session';
import { readString, writeString } from './storage';

// The one module that talks to Capacitor (decision 017). Every export works in a plain browser too: there
// it falls back to the web way (an .ics download, no back button, no deep links) or reports "not native".

/** The scheme of the app's own links (app.parley.mobile://book/event/CODE), as in the native projects. */
export const CUSTOM_URL_SCHEME = 'app.parley.mobile';
/** Spec §9: the mobile header sits 34 px lower on native platforms (below the status bar). */
export const NATIVE_HEADER_OFFSET_PX = 34;
/** Spec §9: black native background with the dark status bar style (Android). */
export const NATIVE_BACKGROUND = '#000000';

export const isNative = (): boolean => Capacitor.isNativePlatform();

export const nativePlatform = (): 'android' | 'ios' | 'web' => {
  const platform = Capacitor.getPlatform();
  return platform === 'android' || platform === 'ios' ? platform : 'web';
};

/** Spec §9: the header offset that applies here (0 in a browser). */
export const headerOffsetPx = (): number => (isNative() ? NATIVE_HEADER_OFFSET_PX : 0);

// ── deep links and the back button (spec §2 "Layouts and navigation") ─────────────────────────────────

/** Hosts whose https links open the app (the server's public host, APP_URL), from the build environment. */
export function deepLinkHosts(raw: string | undefined = import.meta.env.VITE_DEEP_LINK_HOSTS): string[] {
  return (raw ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host.length > 0);
}

/**
 * Where a link that opened the app goes: its path, query and hash, or null for a link that is not ours
 * (another host, another scheme, anything unparsable). `app.parley.mobile://book/event/X` and
 * `app.parley.mobile:///book/event/X` both mean /book/event/X.
 */
export function deepLinkTarget(url: string, hosts: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  let path: string;
  if (parsed.protocol === `${CUSTOM_URL_SCHEME}:`) {
    path = `${parsed.host ? `/${parsed.host}` : ''}${parsed.pathname}`;
  } else if (parsed.protocol === 'https:' && hosts.includes(parsed.host.toLowerCase())) {
    path = parsed.pathname;
  } else {
    return null;
  }
  if (!path.startsWith('/')) path = `/${path}`;
  // Never a protocol-relative path: the router would read "//evil" as another site.
  path = path.replace(/^\/{2,}/, '/');
  return `${path}${parsed.search}${parsed.hash}`;
}

export type BackActions = { back: () => void; exit: () => void };

/** Android back button: back in history (spec §2); at the root it leaves the app, as Android does. */
export function handleBackButton(canGoBack: boolean, actions: BackActions): void {
  if (canGoBack) actions.back();
  else actions.exit();
}

/**
 * Installs the native listeners once at start: back button, links that open the app, pushes, status bar.
 * Returns a cleanup. In a browser it does nothing.
 */
export function installNativeShell(options: {
  navigate: (path: string) => void;
  /** Refetches home where it is shown (spec §4), without navigating. */
  refreshHome: () => void;
  hosts?: readonly string[];
}): () => void {
  if (!isNative()) return () => {};
  const hosts = options.hosts ?? deepLinkHosts();
  const handles: Promise<PluginListenerHandle>[] = [
    App.addListener('backButton', ({ canGoBack }) =>
      handleBackButton(canGoBack, {
        back: () => window.history.back(),
        exit: () => void App.exitApp(),
      }),
    ),
    App.addListener('appUrlOpen', ({ url }) => {
      const target = deepLinkTarget(url, hosts);
      if (target) options.navigate(target);
    }),
    ...listenToPushes(options),
  ];
  void applyNativeChrome();
  const stopPush = registerPushForSession();
  return () => {
    stopPush();
    for (const handle of handles) void handle.then((listener) => listener.remove());
  };
}

/** Spec §9: dark status bar style; on Android a black status bar behind it. */
export async function applyNativeChrome(): Promise<void> {
  if (!isNative()) return;
  try {
    await StatusBar.setStyle({ style: Style.Dark });
    if (nativePlatform() === 'android') await StatusBar.setBackgroundColor({ color: NATIVE_BACKGROUND });
  } catch (error) {
    console.warn('Status bar style not applied', error);
  }
}

// ── device calendar (spec §2 Home dialog, §3 payload, §4 calendar state, §6, §8 Calendar, §9) ──────────

export type CalendarAddInput = CalendarEventInput & { id: number };

export type CalendarAddResult =
  /** native: created in the device calendar */
  | { status: 'added' }
  /** native: the device calendar already holds a matching event */
  | { status: 'exists' }
  /** web: the server's .ics file was downloaded */
  | { status: 'downloaded' }
  | { status: 'denied'; message: string }
  | { status: 'failed'; message: string };

/**
 * Spec §4/§9: whether the device calendar holds the event (a title containing its name on the same day).
 * Needs read access, which the app never asks for (spec §6: write-only): without it, or in a browser,
 * the answer is false and the local calendarEvents list is what the app knows.
 */
export async function isInDeviceCalendar(input: CalendarEventInput): Promise<boolean> {
  if (!isNative()) return false;
  const payload = calendarEventPayload(input);
  if (!payload) return false;
  try {
    const { result } = await CapacitorCalendar.checkPermission({
      scope: CalendarPermissionScope.READ_CALENDAR,
    });
    if (result !== 'granted') return false;
    const { result: events } = await CapacitorCalendar.listEventsInRange(wholeDay(payload.startDate));
    return events.some((event) => titleMatches(event.title, input.name));
  } catch (error) {
    console.warn('Device calendar not readable', error);
    return false;
  }
}

/**
 * "Add to Calendar": on a device, write-only permission, then the event of spec §3/§9 unless one is
 * already there; in a browser, the server's .ics file for the event.
 */
export async function addEventToCalendar(input: CalendarAddInput): Promise<CalendarAddResult> {
  if (!isNative()) {
    try {
      await downloadFile('events/calendar-file', { eventId: input.id }, `event-${input.id}.ics`);
      return { status: 'downloaded' };
    } catch (error) {
      return { status: 'failed', message: serverMessage(error, CALENDAR_TEXT.failed) };
    }
  }
  const payload = calendarEventPayload(input);
  if (!payload) return { status: 'failed', message: CALENDAR_TEXT.failed };
  try {
    const { result } = await CapacitorCalendar.requestWriteOnlyCalendarAccess();
    if (result !== 'granted') return { status: 'denied', message: CALENDAR_TEXT.permissionDenied };
    if (await isInDeviceCalendar(input)) return { status: 'exists' };
    // The plugin takes alert offsets in minutes: Android counts them before the start, iOS after it.
    const sign = nativePlatform() === 'ios' ? -1 : 1;
    await CapacitorCalendar.createEvent({
      title: payload.title,
      location: payload.location,
      description: payload.notes,
      startDate: payload.startDate,
      endDate: payload.endDate,
      isAllDay: payload.isAllDay,
      alerts: payload.alertOffsetInMinutes.map((minutes) => sign * minutes),
    });
    return { status: 'added' };
  } catch (error) {
    console.error('Add to calendar failed', error);
    return { status: 'failed', message: CALENDAR_TEXT.failed };
  }
}

// ── native push token (spec §7 Device: users/register-token; §3 deviceTokenRegistered) ───────────────

export type PushRegistration = 'registered' | 'already-registered' | 'denied' | 'failed' | 'not-native';

/**
 * Asks for notification permission, gets the device's FCM/APNs token and stores it on the user's account.
 * deviceTokenRegistered keeps the id of the user it was registered for, so a second user on the same
 * phone registers again. Spec §8: refusal and errors are only logged.
 */
export async function registerNativePushToken(userId: number): Promise<PushRegistration> {
  if (!isNative()) return 'not-native';
  if (readString(STORAGE_KEYS.deviceTokenRegistered) === String(userId)) return 'already-registered';
  try {
    let permission = await PushNotifications.checkPermissions();
    if (permission.receive === 'prompt' || permission.receive === 'prompt-with-rationale') {
      permission = await PushNotifications.requestPermissions();
    }
    if (permission.receive !== 'granted') {
      console.info('Push permission not granted');
      return 'denied';
    }
    const token = await new Promise<string>((resolve, reject) => {
      const handles: Promise<PluginListenerHandle>[] = [];
      const finish = () => {
        for (const handle of handles) void handle.then((listener) => listener.remove());
      };
      handles.push(
        PushNotifications.addListener('registration', ({ value }) => {
          finish();
          resolve(value);
        }),
        PushNotifications.addListener('registrationError', ({ error }) => {
          finish();
          reject(new Error(error));
        }),
      );
      PushNotifications.register().catch((error: unknown) => {
        finish();
        reject(error);
      });
    });
    // The platform says which push service the token is for (Android: FCM; iOS: APNs).
    await api.post(
      'users/register-token',
      { deviceToken: token, platform: nativePlatform() },
      { query: { id: userId } },
    );
    writeString(STORAGE_KEYS.deviceTokenRegistered, String(userId));
    return 'registered';
  } catch (error) {
    console.warn('Push registration failed', error);
    return 'failed';
  }
}

/** Registers the push token for whoever is signed in: at start and after every login (native only). */
export function registerPushForSession(): () => void {
  if (!isNative()) return () => {};
  let registeredFor: number | null = null;
  const check = () => {
    const { token, user } = getSession();
    const userId = token && user ? user.id : null;
    if (userId === null || userId === registeredFor) return;
    registeredFor = userId;
    void registerNativePushToken(userId);
  };
  check();
  return subscribeSession(check);
}

/**
 * FCM and APNs pushes, handled as the service worker handles Web Push (sw/push.ts, spec §4): whatever
 * the action, what it announces changed home, so home is refetched; a tap on one the system showed opens
 * its page. Received in the foreground, nothing navigates: the user did not ask to leave the screen.
 */
function listenToPushes(options: {
  navigate: (path: string) => void;
  refreshHome: () => void;
}): Promise<PluginListenerHandle>[] {
  return [
    PushNotifications.addListener('pushNotificationReceived', (notification) => {
      if (readPush(notification.data)) options.refreshHome();
    }),
    PushNotifications.addListener('pushNotificationActionPerformed', ({ notification }) => {
      const message = readPush(notification.data);
      if (!message) return;
      options.navigate(message.url);
      options.refreshHome();
    }),
  ];
}
