import { CACHE_MAX_AGE_MS, STORAGE_KEYS } from '@parley/domain/constants';
import { type EventListItem, type EventTypeItem, eventListItem, eventTypeItem } from '@parley/domain/events';
import { z } from 'zod';
import { readJson, readString, removeKeys, writeJson, writeString } from '../../lib/storage';

// Spec §4 caching of the events list (and its event types) in local storage:
// - kept under STORAGE_KEYS.events, with the time of the fetch under lastEventsRefresh, and the event
//   types under eventTypes;
// - refetched when forced (refresh button, pull-to-refresh), when nothing is stored, or when older than
//   4 hours (CACHE_MAX_AGE_MS); a refresh time in the future (clock set back) counts as expired.

export type EventsData = { events: EventListItem[]; eventTypes: EventTypeItem[] };
export type CachedEvents = EventsData & { savedAt: number };

export function eventsCacheExpired(savedAt: number, now: number, maxAgeMs = CACHE_MAX_AGE_MS): boolean {
  return now - savedAt > maxAgeMs || savedAt > now;
}

/** The stored events when spec §4 allows showing them, else null (fetch). */
export function usableEvents(
  cached: CachedEvents | null,
  options: { now: number; forced?: boolean },
): CachedEvents | null {
  if (options.forced || !cached) return null;
  return eventsCacheExpired(cached.savedAt, options.now) ? null : cached;
}

const storedEvents = z.array(eventListItem);
const storedTypes = z.array(eventTypeItem);

export function readEventsCache(): CachedEvents | null {
  const events = storedEvents.safeParse(readJson(STORAGE_KEYS.events));
  const types = storedTypes.safeParse(readJson(STORAGE_KEYS.eventTypes));
  const savedAt = Number(readString(STORAGE_KEYS.lastEventsRefresh));
  if (!events.success || !types.success || !Number.isFinite(savedAt) || savedAt <= 0) return null;
  return { events: events.data, eventTypes: types.data, savedAt };
}

export function writeEventsCache(data: EventsData, now: number): void {
  writeJson(STORAGE_KEYS.events, data.events);
  writeJson(STORAGE_KEYS.eventTypes, data.eventTypes);
  writeString(STORAGE_KEYS.lastEventsRefresh, String(now));
}

/** After a change (create, edit, delete): the next visit to /events fetches. Event types stay. */
export function forgetEvents(): void {
  removeKeys(STORAGE_KEYS.events, STORAGE_KEYS.lastEventsRefresh);
}
