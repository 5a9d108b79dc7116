// How an entry's "from where" reads: the address, and the browser and system its User-Agent names.

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  // Automation (a script or a test) says so: worth seeing in an audit trail.
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\b(Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Chrome on Linux"; an agent it does not recognise is shown as sent, shortened. */
export function agentLabel(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system) as string;
  return userAgent.length > 40 ? `${userAgent.slice(0, 39)}…` : userAgent;
}

/** "203.0.113.7 · Chrome on Linux" */
export function whereLabel(entry: { ip: string | null; userAgent: string | null }): string {
  return `${entry.ip ?? 'Unknown address'} · ${agentLabel(entry.userAgent)}`;
}
