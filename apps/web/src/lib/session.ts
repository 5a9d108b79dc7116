import type { CurrentUser } from '@parley/domain/auth';
import { STORAGE_KEYS } from '@parley/domain/constants';
import { useSyncExternalStore } from 'react';
import { forgetCachedData } from './query-client';
import { readJson, readString, removeKeys, writeJson, writeString } from './storage';
import { parseStoredUser } from './stored-user';

// The signed-in session (spec §3/§4): a token in local storage means logged in. The state lives in
// local storage and is mirrored here so React re-renders when it changes (also from another tab).

export type SessionState = {
  token: string | null;
  user: CurrentUser | null;
  /** The school's name once known (site/index or the current user); the app heading when logged in. */
  subscriberName: string | null;
  /** True while the stored session is being checked against the server at start. */
  loadingAuth: boolean;
};

function readUser(): CurrentUser | null {
  return parseStoredUser(readJson(STORAGE_KEYS.currentUser));
}

function readState(loadingAuth = false): SessionState {
  return {
    token: readString(STORAGE_KEYS.accessToken),
    user: readUser(),
    subscriberName: readString(STORAGE_KEYS.subscriberName),
    loadingAuth,
  };
}

let state: SessionState = readState();
const listeners = new Set<() => void>();

function setState(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-reads local storage (another tab logged in or out). */
export function reloadSession(): void {
  setState(readState(state.loadingAuth));
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (
      event.key === null ||
      event.key === STORAGE_KEYS.accessToken ||
      event.key === STORAGE_KEYS.currentUser
    ) {
      reloadSession();
    }
  });
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

export function isLoggedIn(): boolean {
  return readString(STORAGE_KEYS.accessToken) !== null;
}

export function getAccessToken(): string | null {
  return readString(STORAGE_KEYS.accessToken);
}

/** Login: clears the cached lists and the last view-as choice, stores the token and the current user. */
export function startSession(token: string, user: CurrentUser): void {
  // The lists (with the home data and events of the previous session) live in the persisted cache.
  forgetCachedData();
  removeKeys(STORAGE_KEYS.lastViewAsRole);
  writeString(STORAGE_KEYS.accessToken, token);
  writeJson(STORAGE_KEYS.currentUser, user);
  writeString(STORAGE_KEYS.subscriberName, user.subscriberName);
  setState({ token, user, subscriberName: user.subscriberName });
}

export function setCurrentUser(user: CurrentUser): void {
  writeJson(STORAGE_KEYS.currentUser, user);
  writeString(STORAGE_KEYS.subscriberName, user.subscriberName);
  setState({ user, subscriberName: user.subscriberName });
}

export function setSubscriberName(subscriberName: string): void {
  writeString(STORAGE_KEYS.subscriberName, subscriberName);
  setState({ subscriberName });
}

export function clearCurrentUser(): void {
  removeKeys(STORAGE_KEYS.currentUser);
  setState({ user: null });
}

/** Token removed and current user cleared (a 401 with action logout; opening the verify pages). */
export function clearSession(): void {
  removeKeys(STORAGE_KEYS.accessToken, STORAGE_KEYS.currentUser);
  forgetCachedData();
  setState({ token: null, user: null });
}

/**
 * Logout: removes the token, the current event and the user; the home data (with its refresh time)
 * and the other cached data go with the persisted cache, so a shared device keeps no school's data.
 */
export function endSession(): void {
  removeKeys(STORAGE_KEYS.accessToken, STORAGE_KEYS.currentEvent, STORAGE_KEYS.currentUser);
  forgetCachedData();
  setState({ token: null, user: null });
}

export function setLoadingAuth(loadingAuth: boolean): void {
  if (state.loadingAuth !== loadingAuth) setState({ loadingAuth });
}
