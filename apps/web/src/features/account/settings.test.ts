import { describe, expect, it } from 'vitest';
import { toSettings } from './api';

describe('grouped settings', () => {
  it('fills every known setting, with the defaults where missing or malformed', () => {
    expect(toSettings({ groupedSettings: {} })).toEqual({
      notifications: { bookingConfirmations: true, eventReminders: true, bookingNotifications: false },
      display: { theme: 'dark' },
    });
    expect(
      toSettings({
        groupedSettings: {
          notifications: { eventReminders: false, bookingNotifications: 'yes' },
          display: { theme: 'light' },
        },
      }),
    ).toEqual({
      notifications: { bookingConfirmations: true, eventReminders: false, bookingNotifications: false },
      display: { theme: 'light' },
    });
  });
});
