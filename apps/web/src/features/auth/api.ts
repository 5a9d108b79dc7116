import type {
  CurrentUser,
  EmailRequest,
  InvitationResponse,
  LoginRequest,
  LoginResponse,
  ResetPasswordRequest,
  SignupRequest,
} from '@parley/domain/auth';
import type { Role } from '@parley/domain/roles';
import { routeTo } from '@parley/domain/routes';
import type { LoginOrChallenge, SecondFactorRequest } from '@parley/domain/two-factor';
import { queryOptions } from '@tanstack/react-query';
import { runsInNativeShell } from '../../lib/api-base';
import { api } from '../../lib/api-client';
import { navigateTo } from '../../lib/navigation';
import { queryClient } from '../../lib/query-client';
import { endSession, getAccessToken, setCurrentUser, setLoadingAuth, startSession } from '../../lib/session';

// Calls of the account journey (spec §7 Authentication) and the session actions built on them.

export type MessageResult = { message: string };
export type SignupResult = { success: boolean; message: string };
export type VerifyEmailResult = { accessToken: string | null; message: string };

/** A session, or — with two-factor sign-in on — a challenge for the second step. */
export const login = (body: LoginRequest) => api.post<LoginOrChallenge>('user/login', body);
export const loginSecondFactor = (body: SecondFactorRequest) =>
  api.post<LoginResponse>('user/login-second-factor', body);
export const signup = (body: SignupRequest) => api.post<SignupResult>('site/signup', body);
export const searchEmailForSignup = (q: string, signal?: AbortSignal) =>
  api.get<{ exists: boolean }>('users/search-email-for-signup', { query: { q }, signal });
export const resendSchoolVerification = (body: EmailRequest) =>
  api.post<MessageResult>('site/resend-school-verification', body);
export const requestPasswordReset = (body: EmailRequest) =>
  api.post<MessageResult>('user/request-password-reset', body);
export const resetPassword = (token: string, body: ResetPasswordRequest) =>
  api.post<MessageResult>('user/reset-password', body, { query: { token } });
export const resendInvitation = (body: EmailRequest) =>
  api.post<MessageResult>('user/resend-invitation', body);
export const fetchCurrentUser = () => api.get<CurrentUser>('users/data');

/** Verification links are single use: one request per token, kept for the page's lifetime. */
export const verifyEmailQuery = (token: string) =>
  queryOptions({
    queryKey: ['site', 'verify-email', token],
    queryFn: () => api.get<VerifyEmailResult>('site/verify-email', { query: { token } }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

export const verifySchoolQuery = (token: string) =>
  queryOptions({
    queryKey: ['site', 'verify-school', token],
    queryFn: () => api.get<MessageResult>('site/verify-school', { query: { token } }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

export type InviteRole = Role;

const ACCEPT_PATH: Record<Role, string> = {
  admin: 'users/accept-admin-invite',
  teacher: 'users/accept-teacher-invite',
  parent: 'users/accept-parent-invite',
  student: 'users/accept-student-invite',
};

export const acceptInviteQuery = (role: Role, token: string) =>
  queryOptions({
    queryKey: ['users', 'accept-invite', role, token],
    queryFn: () => api.get<InvitationResponse>(ACCEPT_PATH[role], { query: { token } }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Which endpoint sets the password of an invited user: admin, teacher, or the parent/student one. */
export type SetPasswordKind = 'admin' | 'teacher' | 'new';

export const setPasswordKindFor = (role: Role): SetPasswordKind =>
  role === 'admin' ? 'admin' : role === 'teacher' ? 'teacher' : 'new';

const SET_PASSWORD_PATH: Record<SetPasswordKind, string> = {
  admin: 'users/set-admin-password',
  teacher: 'users/set-teacher-password',
  new: 'users/set-new-password',
};

export const setPassword = (kind: SetPasswordKind, token: string, body: ResetPasswordRequest) =>
  api.post<LoginResponse>(SET_PASSWORD_PATH[kind], { token, ...body });

/**
 * This browser's page requests carry the session too (decision 028), so the server renders home for its
 * user before any script has run. Not in the native app, whose pages are its own files. Failing costs
 * only that.
 */
function keepPageSession(): void {
  if (runsInNativeShell()) return;
  api.post<MessageResult>('user/page-session').catch(() => undefined);
}

/** Login (or a set-password that logs in): fresh caches, token and user stored. */
export function completeLogin(response: LoginResponse): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'site' });
  startSession(response.accessToken, response.user);
  keepPageSession();
}

let loggingOut: Promise<void> | null = null;

/** Logout: tell the server (failure ignored), forget the session, go to login. */
export function logout(): Promise<void> {
  loggingOut ??= (async () => {
    try {
      if (getAccessToken()) await api.post<MessageResult>('user/logout');
    } catch (error) {
      console.warn('Logout request failed; logging out locally', error);
    } finally {
      endSession();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'site' });
      navigateTo(routeTo('login'));
      loggingOut = null;
    }
  })();
  return loggingOut;
}

/** At start: refresh the stored user; a user without a role is logged out (spec §4). */
export async function bootstrapSession(): Promise<void> {
  if (!getAccessToken()) return;
  setLoadingAuth(true);
  try {
    const user = await fetchCurrentUser();
    if (!getAccessToken()) return; // the session ended meanwhile (a verify page, a logout)
    if (!user.role) {
      await logout();
      return;
    }
    setCurrentUser(user);
    // A session from before the page cookie, or a cookie the browser dropped: kept again at each start.
    keepPageSession();
  } catch (error) {
    // 401 + logout is handled by the API client; otherwise keep the stored user and carry on.
    console.error('Could not refresh the current user', error);
  } finally {
    setLoadingAuth(false);
  }
}
