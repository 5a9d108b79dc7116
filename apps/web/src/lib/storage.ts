// Thin, failure-proof wrapper over localStorage (private browsing modes may throw on access).

function store(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readString(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string): void {
  try {
    store()?.setItem(key, value);
  } catch {
    // Storage full or unavailable: the app keeps working from memory.
  }
}

export function readJson(key: string): unknown {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

export function removeKeys(...keys: string[]): void {
  for (const key of keys) {
    try {
      store()?.removeItem(key);
    } catch {
      // ignore: nothing to remove from an unavailable storage
    }
  }
}
