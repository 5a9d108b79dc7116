import { isTicketedGroup } from '@parley/domain/event-groups';
import type { EventDetail, SectionDetail, SectionRequest } from '@parley/domain/events';
import { type SectionPlan, validateSectionPlan } from '@parley/domain/slots';
import type { FieldErrors, Resolver } from 'react-hook-form';

// The section form: a date with start and end in the school's zone, a location and (parent-teacher)
// the teachers with their unavailable times. Checked with the domain's validateSectionPlan, so the form
// shows the texts the API would answer.

export type SectionTeacherValues = {
  teacherId: number;
  name: string;
  /** The teacher's room in this section (kept as it was; edited on the slot grid later). */
  location: string | null;
  unavailable: Array<{ start: string; end: string }>;
};

export type SectionValues = {
  date: string;
  start: string;
  end: string;
  location: string;
  teachers: SectionTeacherValues[];
};

export function sectionValues(section: SectionDetail | null): SectionValues {
  if (!section) return { date: '', start: '16:00', end: '19:00', location: '', teachers: [] };
  return {
    date: section.date,
    start: section.start,
    end: section.end,
    location: section.location ?? '',
    teachers: section.teachers.map((teacher) => ({
      teacherId: teacher.teacherId,
      name: teacher.name,
      location: teacher.location,
      unavailable: teacher.unavailable.map((range) => ({ ...range })),
    })),
  };
}

type PlanEvent = Pick<EventDetail, 'timeZone' | 'eventTypeGroupInt' | 'options'>;

function basePlan(event: PlanEvent, values: SectionValues): SectionPlan {
  const ticketed = isTicketedGroup(event.eventTypeGroupInt);
  return {
    date: values.date,
    start: values.start,
    end: values.end,
    timeZone: event.timeZone,
    // A ticketed section is one slot, whatever the event's slot length (as the server plans it).
    slotMinutes: ticketed ? 1 : event.options.slotMinutes,
    breakMinutes: ticketed ? 0 : event.options.breakMinutes,
  };
}

/** Field → first text: date, start, end, and teachers.{i}.unavailable. Empty when valid. */
export function sectionErrors(event: PlanEvent, values: SectionValues): Record<string, string> {
  const base = basePlan(event, values);
  const out: Record<string, string> = {};
  const errors = validateSectionPlan(base);
  for (const field of ['date', 'start', 'end', 'slotMinutes', 'breakMinutes'] as const) {
    const text = errors[field]?.[0];
    if (text) out[field === 'slotMinutes' || field === 'breakMinutes' ? 'end' : field] ??= text;
  }
  values.teachers.forEach((teacher, index) => {
    const own = validateSectionPlan({ ...base, unavailable: teacher.unavailable }).unavailable?.[0];
    if (own) out[`teachers.${index}.unavailable`] = own;
  });
  return out;
}

/** A react-hook-form resolver over sectionErrors. */
export function sectionResolver(event: PlanEvent): Resolver<SectionValues> {
  return async (values) => {
    const found = sectionErrors(event, values);
    if (Object.keys(found).length === 0) return { values, errors: {} };
    const errors: Record<string, unknown> = {};
    const teachers: Array<Record<string, unknown> | undefined> = [];
    for (const [field, message] of Object.entries(found)) {
      const match = /^teachers\.(\d+)\.unavailable$/.exec(field);
      if (match) teachers[Number(match[1])] = { unavailable: { type: 'validate', message } };
      else errors[field] = { type: 'validate', message };
    }
    if (teachers.length > 0) errors.teachers = teachers;
    return { values: {}, errors: errors as FieldErrors<SectionValues> };
  };
}

export function sectionBody(values: SectionValues, withTeachers: boolean): SectionRequest {
  return {
    date: values.date,
    start: values.start,
    end: values.end,
    location: values.location.trim() || null,
    teachers: withTeachers
      ? values.teachers.map((teacher) => ({
          teacherId: teacher.teacherId,
          location: teacher.location,
          unavailable: teacher.unavailable,
        }))
      : [],
  };
}
