// Where the API is. On the web Parley serves the app itself: same origin, "/api". The native app loads
// its pages from the device (capacitor://localhost, https://localhost), so its build names the school's
// Parley server in VITE_PARLEY_SERVER (npm run build:mobile; the server allows that origin, decision 017).
// The check reads the bridge Capacitor injects before any script runs, so the entry chunk needs no
// Capacitor import (lib/native.ts asks @capacitor/core the same question).

type Bridge = { Capacitor?: { isNativePlatform?: () => boolean } };

export const runsInNativeShell = (scope: Bridge = globalThis as Bridge): boolean =>
  scope.Capacitor?.isNativePlatform?.() === true;

export function apiBase(
  server: string | undefined = import.meta.env.VITE_PARLEY_SERVER,
  native: boolean = runsInNativeShell(),
): string {
  const origin = native && server ? server.trim().replace(/\/+$/, '') : '';
  return `${origin}/api`;
}
