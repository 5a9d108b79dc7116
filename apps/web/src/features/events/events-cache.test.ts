import { CACHE_MAX_AGE_MS, STORAGE_KEYS } from '@parley/domain/constants';
import type { EventListItem, EventTypeItem } from '@parley/domain/events';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CachedEvents,
  eventsCacheExpired,
  forgetEvents,
  readEventsCache,
  usableEvents,
  writeEventsCache,
} from './events-cache';

const NOW = 1_800_000_000_000;

const event: EventListItem = {
  id: 7,
  name: 'Spring evening',
  eventTypeId: 1,
  eventTypeName: 'Parent teacher',
  eventTypeGroupInt: 1,
  status: 1,
  statusLabel: { text: 'Enabled', color: 'success' },
  code: 'abc123def4',
  sections: [],
  sectionTimeLabels: [],
  bookingCountForEvent: 0,
  createdAt: '2026-03-01T09:00:00.000Z',
  createdAtHuman: '3 days ago',
};
const types: EventTypeItem[] = [{ id: 1, name: 'Parent teacher', groupInt: 1 }];
const cached = (savedAt: number): CachedEvents => ({ events: [event], eventTypes: types, savedAt });

describe('events cache rules (spec §4: 4 hours, forced refresh)', () => {
  it('uses a stored list younger than 4 hours', () => {
    expect(usableEvents(cached(NOW - 1000), { now: NOW })).not.toBeNull();
    expect(usableEvents(cached(NOW - CACHE_MAX_AGE_MS), { now: NOW })).not.toBeNull();
  });

  it('refetches when older than 4 hours, when nothing is stored, or when forced', () => {
    expect(CACHE_MAX_AGE_MS).toBe(14_400_000);
    expect(usableEvents(cached(NOW - CACHE_MAX_AGE_MS - 1), { now: NOW })).toBeNull();
    expect(usableEvents(null, { now: NOW })).toBeNull();
    expect(usableEvents(cached(NOW - 1000), { now: NOW, forced: true })).toBeNull();
  });

  it('treats a refresh time in the future (clock set back) as expired', () => {
    expect(eventsCacheExpired(NOW + 60_000, NOW)).toBe(true);
  });
});

describe('events cache storage (events, lastEventsRefresh, eventTypes)', () => {
  beforeEach(() => localStorage.clear());

  it('writes the three keys and reads them back', () => {
    writeEventsCache({ events: [event], eventTypes: types }, NOW);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.events) ?? 'null')).toEqual([event]);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.eventTypes) ?? 'null')).toEqual(types);
    expect(localStorage.getItem(STORAGE_KEYS.lastEventsRefresh)).toBe(String(NOW));
    expect(readEventsCache()).toEqual(cached(NOW));
  });

  it('ignores a list without its refresh time, or a damaged one', () => {
    localStorage.setItem(STORAGE_KEYS.events, JSON.stringify([event]));
    localStorage.setItem(STORAGE_KEYS.eventTypes, JSON.stringify(types));
    expect(readEventsCache()).toBeNull();
    localStorage.setItem(STORAGE_KEYS.lastEventsRefresh, String(NOW));
    localStorage.setItem(STORAGE_KEYS.events, '{"not":"a list"}');
    expect(readEventsCache()).toBeNull();
  });

  it('forgetEvents drops the list and its time but keeps the event types', () => {
    writeEventsCache({ events: [event], eventTypes: types }, NOW);
    forgetEvents();
    expect(localStorage.getItem(STORAGE_KEYS.events)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.lastEventsRefresh)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.eventTypes)).not.toBeNull();
  });
});
