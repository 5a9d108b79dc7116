import { isValidDate, isValidTime, isValidTimeZone, localToInstant } from './time-zone';

// Turning an event section (a local date with start and end in the school's zone) into bookable slots.
//
// The grid rule. A section has one grid: slot k runs from start + k × (slotMinutes + breakMinutes) for
// slotMinutes, in real elapsed time (so across a DST change every slot is exactly slotMinutes long, and a
// section of 00:30–03:30 local on the spring-forward day holds two real hours of slots). A slot is kept
// while it ends at or before the section's end; the last partial slot is dropped.
//
// Breaks and unavailability (per teacher) remove the grid slots they overlap and move nothing: the first
// slot after an unavailable range is the first grid slot that starts at or after the range's end — the
// range's end itself whenever the range ends on the grid (as ranges picked from the grid do). So every
// teacher of a section shares one grid, a parent's consecutive appointments with different teachers line
// up, and adding or changing a teacher's break only ever drops the slots it touches: no later booked slot
// is moved off the grid by an odd amount. Ranges are half-open: one ending at 17:00 does not touch a slot
// starting at 17:00.
//
// Local times go through `localToInstant`, so a start, end or range in a DST gap or overlap follows its
// rules (a nonexistent time moves forward by the gap; an ambiguous one is the earlier instant).

export type TimeRange = { start: string; end: string };

export type SectionPlan = {
  /** YYYY-MM-DD, in `timeZone` */
  date: string;
  /** HH:MM local */
  start: string;
  /** HH:MM local, after `start` on the same date */
  end: string;
  /** the school's IANA zone */
  timeZone: string;
  /** 1..240 */
  slotMinutes: number;
  /** 0..120, between consecutive slots */
  breakMinutes: number;
  /** per-teacher breaks and unavailability, local times on `date` */
  unavailable?: TimeRange[];
};

export type GeneratedSlot = { startsAt: Date; endsAt: Date };

export type SectionPlanField =
  | 'date'
  | 'start'
  | 'end'
  | 'timeZone'
  | 'slotMinutes'
  | 'breakMinutes'
  | 'unavailable';

/** Field name → its error texts; only fields with errors appear. */
export type SectionPlanErrors = Record<string, string[]>;

export const SLOT_MINUTES_MIN = 1;
export const SLOT_MINUTES_MAX = 240;
export const BREAK_MINUTES_MIN = 0;
export const BREAK_MINUTES_MAX = 120;

export const SECTION_PLAN_TEXT = {
  date: 'Enter a date as YYYY-MM-DD',
  time: 'Enter a time as HH:MM',
  timeZone: 'Unknown time zone',
  endAfterStart: 'End must be after start',
  shorterThanSlot: 'The section is shorter than one slot',
  slotRange: `Slot length must be between ${SLOT_MINUTES_MIN} and ${SLOT_MINUTES_MAX} minutes`,
  slotWhole: 'Slot length must be a whole number of minutes',
  breakRange: `Break must be between ${BREAK_MINUTES_MIN} and ${BREAK_MINUTES_MAX} minutes`,
  breakWhole: 'Break must be a whole number of minutes',
  unavailableList: 'Unavailable times must be a list of start and end times',
  unavailableTime: (row: number) => `Unavailable time ${row}: enter times as HH:MM`,
  unavailableEndAfterStart: (row: number) => `Unavailable time ${row}: end must be after start`,
} as const;

/** A section plan that cannot make slots. `errors` are the field errors of `validateSectionPlan`. */
export class SlotPlanError extends Error {
  override readonly name = 'SlotPlanError';
  readonly errors: SectionPlanErrors;

  constructor(errors: SectionPlanErrors) {
    super(Object.values(errors).flat().join('; ') || 'Invalid section');
    this.errors = errors;
  }
}

/**
 * Field errors of a section plan, for the API's 422 and the web form; `{}` when it is valid. Start and
 * end are compared as instants, so an end that falls before the start across a DST gap is refused too.
 * Unavailable ranges are reported under `unavailable`, numbered from 1 in the order given.
 */
export function validateSectionPlan(plan: SectionPlan): SectionPlanErrors {
  return checkPlan(plan).errors;
}

type CheckedPlan = {
  errors: SectionPlanErrors;
  /** section start and end, and the valid unavailable ranges, as ms since the epoch (NaN when unusable) */
  start: number;
  end: number;
  unavailable: Array<{ start: number; end: number }>;
};

function checkPlan(plan: SectionPlan): CheckedPlan {
  const errors: SectionPlanErrors = {};
  const add = (field: SectionPlanField, text: string) => {
    errors[field] = [...(errors[field] ?? []), text];
  };

  const dateOk = isValidDate(plan.date);
  const startOk = isValidTime(plan.start);
  const endOk = isValidTime(plan.end);
  const zoneOk = isValidTimeZone(plan.timeZone);
  if (!dateOk) add('date', SECTION_PLAN_TEXT.date);
  if (!startOk) add('start', SECTION_PLAN_TEXT.time);
  if (!endOk) add('end', SECTION_PLAN_TEXT.time);
  if (!zoneOk) add('timeZone', SECTION_PLAN_TEXT.timeZone);

  const slotOk = checkMinutes(plan.slotMinutes, SLOT_MINUTES_MIN, SLOT_MINUTES_MAX);
  if (slotOk !== true) {
    add('slotMinutes', slotOk === 'whole' ? SECTION_PLAN_TEXT.slotWhole : SECTION_PLAN_TEXT.slotRange);
  }
  const breakOk = checkMinutes(plan.breakMinutes, BREAK_MINUTES_MIN, BREAK_MINUTES_MAX);
  if (breakOk !== true) {
    add('breakMinutes', breakOk === 'whole' ? SECTION_PLAN_TEXT.breakWhole : SECTION_PLAN_TEXT.breakRange);
  }

  const at = (time: string) => localToInstant(plan.date, time, plan.timeZone).getTime();
  const checked: CheckedPlan = { errors, start: Number.NaN, end: Number.NaN, unavailable: [] };
  if (dateOk && startOk && endOk && zoneOk) {
    checked.start = at(plan.start);
    checked.end = at(plan.end);
    const length = checked.end - checked.start;
    if (length <= 0) {
      add('end', SECTION_PLAN_TEXT.endAfterStart);
    } else if (slotOk === true && length < plan.slotMinutes * 60_000) {
      add('end', SECTION_PLAN_TEXT.shorterThanSlot);
    }
  }

  const ranges = plan.unavailable ?? [];
  if (!Array.isArray(ranges)) {
    add('unavailable', SECTION_PLAN_TEXT.unavailableList);
    return checked;
  }
  ranges.forEach((range, index) => {
    const row = index + 1;
    if (!isValidTime(range?.start) || !isValidTime(range?.end)) {
      add('unavailable', SECTION_PLAN_TEXT.unavailableTime(row));
      return;
    }
    if (!dateOk || !zoneOk) return;
    const resolved = { start: at(range.start), end: at(range.end) };
    if (resolved.end <= resolved.start) add('unavailable', SECTION_PLAN_TEXT.unavailableEndAfterStart(row));
    else checked.unavailable.push(resolved);
  });
  return checked;
}

/**
 * The slots of one section for one teacher (or one slot series): see the grid rule at the top of this
 * file. Every slot lasts exactly `slotMinutes` real minutes; slots come in time order.
 *
 * @throws SlotPlanError when `validateSectionPlan` finds any error.
 */
export function generateSlots(plan: SectionPlan): GeneratedSlot[] {
  const { errors, start: sectionStart, end: sectionEnd, unavailable } = checkPlan(plan);
  if (Object.keys(errors).length > 0) throw new SlotPlanError(errors);

  const slotMs = plan.slotMinutes * 60_000;
  const stepMs = (plan.slotMinutes + plan.breakMinutes) * 60_000;

  const slots: GeneratedSlot[] = [];
  for (let startsAt = sectionStart; startsAt + slotMs <= sectionEnd; startsAt += stepMs) {
    const endsAt = startsAt + slotMs;
    if (unavailable.some((range) => range.start < endsAt && range.end > startsAt)) continue;
    slots.push({ startsAt: new Date(startsAt), endsAt: new Date(endsAt) });
  }
  return slots;
}

/**
 * The booked slots of `oldSlots` with no slot of identical start and end in `newSlots`: the bookings a
 * section edit would drop or move. Compare one teacher's (one series') slots at a time. Extra fields of
 * the old slots (ids, booking details) are kept, for the message that lists the bookings affected.
 */
export function slotsAffectedBy<T extends { startsAt: Date; endsAt: Date; booked: boolean }>(
  oldSlots: readonly T[],
  newSlots: readonly GeneratedSlot[],
): T[] {
  const key = (slot: { startsAt: Date; endsAt: Date }) =>
    `${slot.startsAt.getTime()}/${slot.endsAt.getTime()}`;
  const kept = new Set(newSlots.map(key));
  return oldSlots.filter((slot) => slot.booked && !kept.has(key(slot)));
}

function checkMinutes(value: unknown, min: number, max: number): true | 'whole' | 'range' {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'whole';
  return value >= min && value <= max ? true : 'range';
}
