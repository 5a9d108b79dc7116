import { useEffect, useState } from 'react';

/** A search asks the server this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 250;

/** The value once it has stopped changing for `delayMs`: a search asks the server after typing pauses. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
