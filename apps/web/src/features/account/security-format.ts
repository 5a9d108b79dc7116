import { timeAgo } from '@parley/domain/relative-time';
import type { SessionItem } from '@parley/domain/sessions';

// Pure helpers of the profile's security cards (decision 015).

/** "5 minutes ago", for a session's times. */
export function ago(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeAgo(date, now);
}

/** This device first, then the latest active. */
export function sortSessions(items: SessionItem[]): SessionItem[] {
  return [...items].sort(
    (a, b) =>
      Number(b.current) - Number(a.current) || Date.parse(b.lastActiveAt) - Date.parse(a.lastActiveAt),
  );
}

/** The codes as a block of text to copy or keep: one a line. */
export const recoveryCodesText = (codes: string[]) => `${codes.join('\n')}\n`;
