import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

// A secret in the address (the mails' ?token=, the booking invitation's ?link=) is read once, kept for this
// tab and taken out of the address bar: history, screenshots and shared screens keep URLs (decision 011).

// Only when sessionStorage is unavailable (some private modes): the token then lives as long as the page.
const memory = new Map<string, string>();

function tabStore(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** The value kept for this tab under `key`, or null. */
export function readKept(key: string): string | null {
  try {
    const stored = tabStore()?.getItem(key);
    if (stored) return stored;
  } catch {
    // unavailable: memory below
  }
  return memory.get(key) ?? null;
}

export function keep(key: string, value: string): void {
  try {
    const store = tabStore();
    if (store) {
      store.setItem(key, value);
      return;
    }
  } catch {
    // full or unavailable: memory below
  }
  memory.set(key, value);
}

export function forgetKept(key: string): void {
  memory.delete(key);
  try {
    tabStore()?.removeItem(key);
  } catch {
    // nothing to remove
  }
}

/** `search` without `param` (other parameters kept), or null when it has no such parameter. */
export function searchWithout(search: string, param: string): string | null {
  const params = new URLSearchParams(search);
  if (!params.has(param)) return null;
  params.delete(param);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** Where a page's token is kept by default: per page and parameter, so a reload finds it again. */
export const urlTokenKey = (pathname: string, param: string) => `urlToken:${pathname}:${param}`;

/**
 * The token in the query parameter `param`: taken from the address, kept for the tab under `key`, then
 * dropped from the address (a replace: no new history entry). From then on, and after a reload, it comes
 * from the tab's store. Null when the page has none.
 */
export function useUrlToken(param: string, key?: string): string | null {
  const { pathname, search, hash, state } = useLocation();
  const navigate = useNavigate();
  const storeKey = key ?? urlTokenKey(pathname, param);
  const fromUrl = new URLSearchParams(search).get(param);

  useEffect(() => {
    const rest = searchWithout(search, param);
    if (rest === null) return;
    if (fromUrl) keep(storeKey, fromUrl);
    navigate({ pathname, search: rest, hash }, { replace: true, state });
  }, [fromUrl, hash, navigate, param, pathname, search, state, storeKey]);

  return fromUrl || readKept(storeKey);
}
