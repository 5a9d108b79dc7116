import {
  EVENT_STATUS_LABELS,
  EVENT_TEXT,
  type EventListItem,
  type SectionSummary,
  toSectionSummary,
} from '@parley/domain/events';
import { timeAgo } from '@parley/domain/relative-time';
import { formatLocalDateTime } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import { listEventTypes } from './event-types.repository';
import * as repo from './events.repository';
import { statusOf, toTypeItem } from './events.service';
import { loadSchool } from './sections.service';

// The events list (spec §4 Events): every event of the school with its sections, and the event types.

function toListItem(
  row: repo.EventRow,
  sections: SectionSummary[],
  now: Date,
  timeZone: string,
): EventListItem {
  const status = statusOf(row.status);
  return {
    id: row.id,
    name: row.name,
    eventTypeId: row.event_type_id,
    eventTypeName: row.type_name,
    eventTypeGroupInt: row.group_int,
    status,
    statusLabel: EVENT_STATUS_LABELS[status],
    code: row.code,
    sections,
    sectionTimeLabels: sections.map((section) => section.label),
    bookingCountForEvent: row.booking_count,
    createdAt: row.created_at.toISOString(),
    createdAtHuman: timeAgo(row.created_at, now),
    createdAtLabel: formatLocalDateTime(row.created_at, timeZone),
  };
}

export async function listEvents(ctx: AppContext, schoolId: number) {
  const [school, events, sections, types] = await Promise.all([
    loadSchool(ctx.db, schoolId),
    repo.listEvents(ctx.db, schoolId),
    repo.listSections(ctx.db, schoolId),
    listEventTypes(ctx.db, schoolId),
  ]);
  const byEvent = new Map<number, SectionSummary[]>();
  for (const section of sections) {
    const list = byEvent.get(section.event_id) ?? [];
    list.push(toSectionSummary(section, school.timezone));
    byEvent.set(section.event_id, list);
  }
  const now = new Date();
  return {
    events: events.map((event) => toListItem(event, byEvent.get(event.id) ?? [], now, school.timezone)),
    eventTypes: types.map(toTypeItem),
    message: EVENT_TEXT.listed,
  };
}
