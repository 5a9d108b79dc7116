import { EVENT_GROUPS, isTicketedGroup } from '@parley/domain/event-groups';
import {
  type GeneratedSlot,
  generateSlots,
  type SectionPlan,
  validateSectionPlan,
} from '@parley/domain/slots';
import { localToInstant } from '@parley/domain/time-zone';
import type { LocalSpan } from '../../db/schema';

// From a section (local date, start and end in the school's zone) to the slots it must have. Pure: the
// rules live in @parley/domain/slots; this file only decides which series each kind of event gets.
//
// - parent-teacher (group 1): one series per teacher of the section, each with its own unavailability;
// - booking event (group 4): one series for the section, slots of the event's length, capacity per slot;
// - ticketed and ceremony (groups 2, 3): one slot spanning the section; its capacity is the places.

export type PlanEvent = { group_int: number; slot_minutes: number; break_minutes: number };
export type SectionTimes = { date: string; start: string; end: string };
export type PlanTeacher = { teacherId: number; unavailable: LocalSpan[] };
export type DesiredSlot = GeneratedSlot & { teacherId: number | null };

function basePlan(event: PlanEvent, section: SectionTimes, timeZone: string): SectionPlan {
  const ticketed = isTicketedGroup(event.group_int);
  return {
    date: section.date,
    start: section.start,
    end: section.end,
    timeZone,
    // A ticketed section is one slot, whatever the event's slot length.
    slotMinutes: ticketed ? 1 : event.slot_minutes,
    breakMinutes: ticketed ? 0 : event.break_minutes,
  };
}

/**
 * Field errors of a section request, with the rules' texts: date, start, end of the section, and
 * `teachers.{i}.unavailable` for a teacher's unavailable times.
 */
export function sectionErrors(
  event: PlanEvent,
  section: SectionTimes,
  teachers: PlanTeacher[],
  timeZone: string,
): Record<string, string[]> {
  const base = basePlan(event, section, timeZone);
  const errors: Record<string, string[]> = { ...validateSectionPlan(base) };
  teachers.forEach((teacher, index) => {
    const own = validateSectionPlan({ ...base, unavailable: teacher.unavailable }).unavailable;
    if (own?.length) errors[`teachers.${index}.unavailable`] = own;
  });
  return errors;
}

/** The section's instants: where starts_at/ends_at come from (a DST day is handled by localToInstant). */
export function sectionInstants(section: SectionTimes, timeZone: string) {
  return {
    startsAt: localToInstant(section.date, section.start, timeZone),
    endsAt: localToInstant(section.date, section.end, timeZone),
  };
}

/** Every slot a section must have; call only after sectionErrors found none. */
export function plannedSlots(
  event: PlanEvent,
  section: SectionTimes,
  teachers: PlanTeacher[],
  timeZone: string,
): DesiredSlot[] {
  const base = basePlan(event, section, timeZone);
  if (event.group_int === EVENT_GROUPS.parentTeacher) {
    return teachers.flatMap((teacher) =>
      generateSlots({ ...base, unavailable: teacher.unavailable }).map((slot) => ({
        ...slot,
        teacherId: teacher.teacherId,
      })),
    );
  }
  if (isTicketedGroup(event.group_int)) {
    return [{ ...sectionInstants(section, timeZone), teacherId: null }];
  }
  return generateSlots(base).map((slot) => ({ ...slot, teacherId: null }));
}
