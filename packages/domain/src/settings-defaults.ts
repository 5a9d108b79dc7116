import { PUSH_SETTINGS_DEFAULTS } from './push';

// A person's settings and their defaults, apart from the school module's schemas: the top bar's theme
// switch saves a setting and should not download zod for it (decision 019).

/** Settings grouped as the spec's groupedSettings: { group: { key: value } }. */
export const SETTINGS_DEFAULTS = {
  notifications: { bookingConfirmations: true, eventReminders: true, bookingNotifications: false },
  display: { theme: 'dark' },
  push: PUSH_SETTINGS_DEFAULTS,
} as const;

/** The stored settings over their defaults: every group and key is always present. */
export function withSettingsDefaults(stored: Record<string, Record<string, unknown>>) {
  return {
    notifications: { ...SETTINGS_DEFAULTS.notifications, ...stored.notifications },
    display: { ...SETTINGS_DEFAULTS.display, ...stored.display },
    push: { ...SETTINGS_DEFAULTS.push, ...stored.push } as Record<
      keyof typeof PUSH_SETTINGS_DEFAULTS,
      boolean
    >,
  };
}
