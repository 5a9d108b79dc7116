// Evenings happening now, for the journeys of the night itself (live timing, video calls): a school zone
// where it is about midday, so that anything within the next hours is today there, and local times in it.

/** A zone where it is now about midday. */
export function middayZone(now = new Date()): string {
  const offset = 12 - now.getUTCHours(); // hours ahead of UTC; Etc/GMT's sign is the other way round
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** The date and time (HH:MM) of an instant in the zone. */
export function localAt(zone: string, at: Date): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The date and a time on a 10-minute boundary, `minutes` from now in the zone. */
export const localSoon = (zone: string, minutes: number) =>
  localAt(zone, new Date(Math.ceil((Date.now() + minutes * 60_000) / 600_000) * 600_000));
