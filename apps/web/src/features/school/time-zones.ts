// The IANA time zones this browser knows, for the school's searchable time-zone picker.

const FALLBACK_ZONES = ['UTC', 'Europe/London', 'Europe/Paris', 'America/New_York', 'Australia/Sydney'];

type IntlWithZones = typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };

/** Every zone of Intl.supportedValuesOf('timeZone'), with UTC, and the current value kept if unknown. */
export function timeZoneOptions(current?: string): string[] {
  const supported = (Intl as IntlWithZones).supportedValuesOf?.('timeZone') ?? FALLBACK_ZONES;
  const zones = new Set(supported);
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones].sort((a, b) => a.localeCompare(b));
}

/** "Europe/London (GMT+01:00)": the zone and its offset now, so a search for either finds it. */
export function timeZoneLabel(zone: string, at = new Date()): string {
  try {
    const parts = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      timeZoneName: 'longOffset',
    }).formatToParts(at);
    const offset = parts.find((part) => part.type === 'timeZoneName')?.value;
    return offset ? `${zone.replaceAll('_', ' ')} (${offset})` : zone.replaceAll('_', ' ');
  } catch {
    return zone;
  }
}
