// "3 days ago" and "in 3 days": the spec's createdAtHuman and timeToEvent (spec §3), in whole units.

const UNITS: ReadonlyArray<[name: string, ms: number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

function span(ms: number): string | null {
  for (const [name, size] of UNITS) {
    const count = Math.floor(ms / size);
    if (count >= 1) return `${count} ${name}${count === 1 ? '' : 's'}`;
  }
  return null;
}

/** "just now", "5 minutes ago", "3 days ago"; a time in the future reads "just now". */
export function timeAgo(instant: Date, now: Date = new Date()): string {
  const text = span(now.getTime() - instant.getTime());
  return text ? `${text} ago` : 'just now';
}

/** "in 5 minutes", "in 3 days"; a time that has come reads "now". */
export function timeUntil(instant: Date, now: Date = new Date()): string {
  const text = span(instant.getTime() - now.getTime());
  return text ? `in ${text}` : 'now';
}
