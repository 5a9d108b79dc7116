import type { EventGroup } from '@parley/domain/event-groups';
import { instantToLocal } from '@parley/domain/time-zone';
import type { Db } from '../../db/database';
import { findSchool } from '../accounts/accounts.repository';
import { insertEventWithCode } from './create-event.service';
import { listEventTypes } from './event-types.repository';
import * as repo from './events.repository';
import { plannedSlots, sectionInstants } from './slot-planner';

// Spec §2 Home: "New account signups include sample events." One of each type, disabled, each with a
// section some weeks ahead in the school's zone; the parent-teacher one waits for its teachers.

type Sample = {
  group: EventGroup;
  name: string;
  daysAhead: number;
  start: string;
  end: string;
  location: string;
  message: string;
  options: { slot_minutes?: number; capacity: number; guest_allowance?: number; gown_sizes?: string[] };
};

const SAMPLES: Sample[] = [
  {
    group: 1,
    name: 'Sample: Parent teacher evening',
    daysAhead: 28,
    start: '16:00',
    end: '19:00',
    location: 'Main hall',
    message: 'Book a short meeting with each of your child’s teachers.',
    options: { slot_minutes: 10, capacity: 1 },
  },
  {
    group: 4,
    name: 'Sample: Open morning tours',
    daysAhead: 35,
    start: '09:00',
    end: '12:00',
    location: 'Reception',
    message: 'Choose a time for a guided tour of the school.',
    options: { slot_minutes: 30, capacity: 10 },
  },
  {
    group: 2,
    name: 'Sample: Summer concert',
    daysAhead: 42,
    start: '18:30',
    end: '20:30',
    location: 'Main hall',
    message: 'Reserve your places; show your ticket at the door.',
    options: { capacity: 150, guest_allowance: 2 },
  },
  {
    group: 3,
    name: 'Sample: Graduation ceremony',
    daysAhead: 49,
    start: '14:00',
    end: '16:00',
    location: 'Sports hall',
    message: 'Tell us your gown size and how many guests you will bring.',
    options: { capacity: 200, guest_allowance: 2, gown_sizes: ['S', 'M', 'L', 'XL'] },
  },
];

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** One disabled sample event of each of the school's starting types, in the signup transaction. */
export async function createSampleEvents(trx: Db, schoolId: number, now = new Date()): Promise<void> {
  const types = await listEventTypes(trx, schoolId);
  const school = await findSchool(trx, schoolId);
  const today = instantToLocal(now, school.timezone).date;
  for (const sample of SAMPLES) {
    const type = types.find((row) => row.group_int === sample.group);
    if (!type) continue;
    const eventId = await insertEventWithCode(
      trx,
      {
        school_id: schoolId,
        event_type_id: type.id,
        name: sample.name,
        status: 0,
        booking_page_message: sample.message,
        ...sample.options,
      },
      1,
    );
    const section = { date: addDays(today, sample.daysAhead), start: sample.start, end: sample.end };
    const { startsAt, endsAt } = sectionInstants(section, school.timezone);
    const sectionId = await repo.insertSection(trx, schoolId, eventId, {
      date: section.date,
      start_time: section.start,
      end_time: section.end,
      starts_at: startsAt,
      ends_at: endsAt,
      location: sample.location,
    });
    const event = {
      group_int: sample.group,
      slot_minutes: sample.options.slot_minutes ?? 10,
      break_minutes: 0,
    };
    await repo.insertSlots(
      trx,
      plannedSlots(event, section, [], school.timezone).map((slot) => ({
        school_id: schoolId,
        event_id: eventId,
        section_id: sectionId,
        teacher_id: slot.teacherId,
        starts_at: slot.startsAt,
        ends_at: slot.endsAt,
        capacity: sample.options.capacity,
      })),
    );
  }
}
