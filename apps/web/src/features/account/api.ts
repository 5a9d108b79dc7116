import type { CurrentUser, MessageResponse } from '@parley/domain/auth';
import type { ChangePasswordRequest, ProfileUpdate, SettingsUpdate } from '@parley/domain/school';
import type { SessionsResponse } from '@parley/domain/sessions';
import { SETTINGS_DEFAULTS } from '@parley/domain/settings-defaults';
import type {
  ConfirmTwoFactorRequest,
  ProofRequest,
  RecoveryCodesResponse,
  TwoFactorEnrolment,
  TwoFactorStatus,
} from '@parley/domain/two-factor';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { setCurrentUser } from '../../lib/session';

// One's own profile, password and settings (every role, spec §6 "All roles: My profile, Settings").

export const profileQuery = (id: number) =>
  queryOptions({
    queryKey: ['account', 'profile', id],
    queryFn: ({ signal }) => api.get<CurrentUser>('users/view', { query: { id }, signal }),
  });

/** Saves the profile and shows the new names at once (menu, heading). */
export async function updateProfile(id: number, body: ProfileUpdate): Promise<CurrentUser> {
  const user = await api.post<CurrentUser>('users/update', body, { query: { id } });
  setCurrentUser(user);
  queryClient.setQueryData(profileQuery(id).queryKey, user);
  return user;
}

export const changePassword = (body: ChangePasswordRequest) =>
  api.post<MessageResponse>('users/change-password', body);

export type NotificationKey = keyof typeof SETTINGS_DEFAULTS.notifications;
export type Settings = {
  notifications: Record<NotificationKey, boolean>;
  display: { theme: 'dark' | 'light' };
};

type SettingsResponse = { groupedSettings: Record<string, Record<string, unknown>> };

/** The server's groups with every known setting present (defaults where missing or malformed). */
export function toSettings(response: SettingsResponse): Settings {
  const notifications = response.groupedSettings.notifications ?? {};
  const display = response.groupedSettings.display ?? {};
  const flag = (key: NotificationKey) =>
    typeof notifications[key] === 'boolean'
      ? (notifications[key] as boolean)
      : SETTINGS_DEFAULTS.notifications[key];
  return {
    notifications: {
      bookingConfirmations: flag('bookingConfirmations'),
      eventReminders: flag('eventReminders'),
      bookingNotifications: flag('bookingNotifications'),
    },
    display: { theme: display.theme === 'light' ? 'light' : 'dark' },
  };
}

export const settingsQuery = queryOptions({
  queryKey: ['account', 'settings'],
  queryFn: async ({ signal }) => toSettings(await api.get<SettingsResponse>('users/settings', { signal })),
});

export async function updateSettings(body: SettingsUpdate): Promise<Settings> {
  const settings = toSettings(await api.post<SettingsResponse>('users/update-settings', body));
  queryClient.setQueryData(settingsQuery.queryKey, settings);
  return settings;
}

// Signed-in sessions and two-factor sign-in (decision 015).

export const sessionsQuery = queryOptions({
  queryKey: ['account', 'sessions'],
  queryFn: ({ signal }) => api.get<SessionsResponse>('user/sessions', { signal }),
});

type Ended = { message: string; ended: number };

export async function endSession(id: number): Promise<Ended> {
  const result = await api.post<Ended>('user/end-session', { id });
  await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
  return result;
}

export async function endOtherSessions(): Promise<Ended> {
  const result = await api.post<Ended>('user/end-other-sessions');
  await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
  return result;
}

export const twoFactorQuery = queryOptions({
  queryKey: ['account', 'two-factor'],
  queryFn: ({ signal }) => api.get<TwoFactorStatus>('user/two-factor', { signal }),
});

const refreshTwoFactor = () => queryClient.invalidateQueries({ queryKey: twoFactorQuery.queryKey });

export const startTwoFactor = () => api.post<TwoFactorEnrolment>('user/start-two-factor');

export async function confirmTwoFactor(body: ConfirmTwoFactorRequest): Promise<RecoveryCodesResponse> {
  const result = await api.post<RecoveryCodesResponse>('user/confirm-two-factor', body);
  await refreshTwoFactor();
  return result;
}

export async function renewRecoveryCodes(body: ProofRequest): Promise<RecoveryCodesResponse> {
  const result = await api.post<RecoveryCodesResponse>('user/renew-recovery-codes', body);
  await refreshTwoFactor();
  return result;
}

export async function turnOffTwoFactor(body: ProofRequest): Promise<MessageResponse> {
  const result = await api.post<MessageResponse>('user/turn-off-two-factor', body);
  await refreshTwoFactor();
  return result;
}

/**
 * One field takes a current code or the password: six digits are a code (a password has at least 8
 * characters), anything else the password.
 */
export function proofOf(typed: string): ProofRequest {
  const digits = typed.replace(/\s/g, '');
  return /^\d{6}$/.test(digits) ? { code: digits } : { password: typed };
}
