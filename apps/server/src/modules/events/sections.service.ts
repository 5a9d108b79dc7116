import { EVENT_GROUPS } from '@parley/domain/event-groups';
import { bookingPath, EVENT_TEXT, type SectionRequest } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import { slotsAffectedBy } from '@parley/domain/slots';
import { formatLocalDateTime } from '@parley/domain/time-zone';
import type { Insertable } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { SlotsTable } from '../../db/schema';
import { HttpError, notFound, unprocessable } from '../../lib/http-error';
import { enqueueMails } from '../../mail/outbox.repository';
import { bookingsCancelledMail, type CancelReason } from '../../mail/templates';
import { findSchool } from '../accounts/accounts.repository';
import { issueEventLinksWithoutPassword } from '../tokens/tokens.repository';
import * as repo from './events.repository';
import {
  type DesiredSlot,
  type PlanTeacher,
  plannedSlots,
  sectionErrors,
  sectionInstants,
} from './slot-planner';

// Sections and the slots they generate, kept consistent in one transaction. A change that would drop or
// move a booked slot is refused (409, listing the bookings) unless the admin confirms it; then those
// bookings are cancelled and their families mailed through the outbox, in the same transaction.

export type School = { id: number; name: string; timezone: string };
type SectionBody = Omit<SectionRequest, 'teachers'> & {
  teachers: Array<{
    teacherId: number;
    location?: string | null | undefined;
    unavailable: PlanTeacher['unavailable'];
  }>;
};

const slotKey = (teacherId: number | null, startsAt: Date, endsAt: Date) =>
  `${teacherId ?? 0}/${startsAt.getTime()}/${endsAt.getTime()}`;

/** What a new slot plan does to a section's slots: which go, which come, which bookings it would cancel. */
type SlotChange = {
  sectionId: number;
  deleteIds: number[];
  insert: DesiredSlot[];
  affected: repo.BookingRow[];
};

/** Compares the section's (locked) slots with the plan; the booked ones the plan drops are "affected". */
async function diffSection(
  trx: Db,
  schoolId: number,
  sectionId: number,
  desired: DesiredSlot[],
): Promise<SlotChange> {
  const existing = await repo.lockSlots(trx, schoolId, { sectionId });
  const live = await repo.liveBookingsOnSlots(
    trx,
    schoolId,
    existing.map((slot) => slot.id),
  );
  const bookedSlotIds = new Set(live.map((booking) => booking.slot_id));

  // One series per teacher (teacher-less slots are their own series), compared with the rules' helper.
  const series = new Map<number, { old: typeof existing; planned: DesiredSlot[] }>();
  const seriesOf = (teacherId: number | null) => {
    const key = teacherId ?? 0;
    let entry = series.get(key);
    if (!entry) {
      entry = { old: [], planned: [] };
      series.set(key, entry);
    }
    return entry;
  };
  for (const slot of existing) seriesOf(slot.teacher_id).old.push(slot);
  for (const slot of desired) seriesOf(slot.teacherId).planned.push(slot);
  const affectedSlotIds = new Set<number>();
  for (const { old, planned } of series.values()) {
    const oldSlots = old.map((slot) => ({
      id: slot.id,
      startsAt: slot.starts_at,
      endsAt: slot.ends_at,
      booked: bookedSlotIds.has(slot.id),
    }));
    for (const slot of slotsAffectedBy(oldSlots, planned)) affectedSlotIds.add(slot.id);
  }

  const wanted = new Set(desired.map((slot) => slotKey(slot.teacherId, slot.startsAt, slot.endsAt)));
  const have = new Set(existing.map((slot) => slotKey(slot.teacher_id, slot.starts_at, slot.ends_at)));
  return {
    sectionId,
    deleteIds: existing
      .filter((slot) => !wanted.has(slotKey(slot.teacher_id, slot.starts_at, slot.ends_at)))
      .map((slot) => slot.id),
    insert: desired.filter((slot) => !have.has(slotKey(slot.teacherId, slot.startsAt, slot.endsAt))),
    affected: live.filter((booking) => booking.slot_id !== null && affectedSlotIds.has(booking.slot_id)),
  };
}

const familyName = (booking: repo.BookingRow) => {
  const parent = booking.parent_name;
  const student = booking.student_name;
  if (parent && student) return `${parent} (${student})`;
  return parent ?? student ?? 'Unknown family';
};

const bookingLine = (booking: repo.BookingRow, timeZone: string) =>
  `${formatLocalDateTime(booking.starts_at, timeZone)}${booking.teacher_name ? ` with ${booking.teacher_name}` : ''}`;

/** 409 naming the bookings a change would cancel; the same request with confirm: true applies it. */
export function affectedConflict(affected: repo.BookingRow[], timeZone: string, action: string): HttpError {
  const list = affected.map((booking) => `${familyName(booking)}, ${bookingLine(booking, timeZone)}`);
  const count = affected.length === 1 ? '1 booking' : `${affected.length} bookings`;
  return new HttpError(
    409,
    `${action} would cancel ${count}: ${list.join('; ')}. Confirm to apply it and tell the families.`,
    undefined,
    {
      confirmRequired: true,
      affectedBookings: affected.map((booking) => ({
        bookingId: booking.id,
        familyName: familyName(booking),
        teacherName: booking.teacher_name,
        startsAt: booking.starts_at.toISOString(),
        timeLabel: formatLocalDateTime(booking.starts_at, timeZone),
      })),
    },
  );
}

/** Cancels the bookings and mails each family once, listing its cancelled bookings. */
export async function cancelAndNotify(
  ctx: AppContext,
  trx: Db,
  school: School,
  event: repo.EventRow,
  bookings: repo.BookingRow[],
  reason: CancelReason,
): Promise<void> {
  if (bookings.length === 0) return;
  await repo.cancelBookings(
    trx,
    school.id,
    bookings.map((booking) => booking.id),
  );
  const families = new Map<string, { firstName: string; userId: number; lines: string[] }>();
  for (const booking of bookings) {
    const to = booking.parent_email ?? booking.student_email;
    const userId = booking.parent_email ? booking.parent_id : booking.student_id;
    if (!to || userId === null) continue;
    const firstName =
      (booking.parent_email ? booking.parent_name : booking.student_name)?.split(' ')[0] ?? '';
    const family = families.get(to) ?? { firstName, userId, lines: [] };
    family.lines.push(
      `${bookingLine(booking, school.timezone)}${booking.student_name && booking.parent_email ? ` (${booking.student_name})` : ''}`,
    );
    families.set(to, family);
  }
  const url = `${ctx.config.appUrl}${bookingPath(event.group_int, event.code)}`;
  // "Book again" opens the booking page for a family without a password too: with a personal link.
  const links =
    reason === 'eventDeleted'
      ? new Map<number, string>()
      : await issueEventLinksWithoutPassword(trx, {
          schoolId: school.id,
          eventId: event.id,
          userIds: [...families.values()].map((family) => family.userId),
        });
  await enqueueMails(
    trx,
    [...families].map(([to, family]) =>
      bookingsCancelledMail(
        {
          product: ctx.config.appName,
          appUrl: ctx.config.appUrl,
          schoolName: school.name,
          schoolId: school.id,
          to,
          firstName: family.firstName,
        },
        {
          eventName: event.name,
          reason,
          bookings: family.lines,
          url: links.has(family.userId) ? `${url}?link=${links.get(family.userId)}` : url,
        },
      ),
    ),
  );
}

/** Applies slot changes (all checked first): refuses with 409 when bookings are hit and not confirmed. */
async function applyChanges(
  ctx: AppContext,
  trx: Db,
  school: School,
  event: repo.EventRow,
  changes: SlotChange[],
  confirm: boolean,
  action: string,
): Promise<number> {
  const affected = changes.flatMap((change) => change.affected);
  if (affected.length > 0 && !confirm) throw affectedConflict(affected, school.timezone, action);
  await cancelAndNotify(ctx, trx, school, event, affected, 'timesChanged');
  await repo.deleteSlots(
    trx,
    school.id,
    changes.flatMap((change) => change.deleteIds),
  );
  const rows: Insertable<SlotsTable>[] = changes.flatMap((change) =>
    change.insert.map((slot) => ({
      school_id: school.id,
      event_id: event.id,
      section_id: change.sectionId,
      teacher_id: slot.teacherId,
      starts_at: slot.startsAt,
      ends_at: slot.endsAt,
      capacity: event.capacity,
    })),
  );
  await repo.insertSlots(trx, rows);
  return affected.length;
}

export async function loadSchool(db: Db, schoolId: number): Promise<School> {
  const school = await findSchool(db, schoolId);
  return { id: school.id, name: school.name, timezone: school.timezone };
}

async function lockedEvent(trx: Db, schoolId: number, eventId: number) {
  const event = await repo.lockEvent(trx, schoolId, eventId);
  if (!event) throw notFound(EVENT_TEXT.notFound);
  return event;
}

/** 422 for bad times, teachers on an event without teachers, unknown or repeated teachers. */
async function checkSection(db: Db, school: School, event: repo.EventRow, body: SectionBody) {
  const errors = sectionErrors(event, body, body.teachers, school.timezone);
  if (body.teachers.length > 0) {
    if (event.group_int !== EVENT_GROUPS.parentTeacher) {
      errors.teachers = [EVENT_TEXT.teachersOnlyForParentTeacher];
    } else {
      const ids = body.teachers.map((teacher) => teacher.teacherId);
      if (new Set(ids).size !== ids.length) errors.teachers = [EVENT_TEXT.duplicateTeacher];
      else {
        const known = new Set(
          (await repo.peopleWithRoles(db, school.id, ['teacher'], { ids })).map((teacher) => teacher.id),
        );
        const unknown = ids.filter((id) => !known.has(id));
        if (unknown.length) errors.teachers = [`${EVENT_TEXT.unknownTeacher}: ${unknown.join(', ')}`];
      }
    }
  }
  if (Object.keys(errors).length) throw unprocessable(SERVER_TEXT.invalidInput, errors);
}

function sectionValues(body: SectionBody, school: School) {
  const { startsAt, endsAt } = sectionInstants(body, school.timezone);
  return {
    date: body.date,
    start_time: body.start,
    end_time: body.end,
    starts_at: startsAt,
    ends_at: endsAt,
    location: body.location ?? null,
  };
}

const teachersOf = (body: SectionBody) =>
  body.teachers.map((teacher) => ({
    teacherId: teacher.teacherId,
    location: teacher.location ?? null,
    unavailable: teacher.unavailable,
  }));

export async function createSection(ctx: AppContext, schoolId: number, eventId: number, body: SectionBody) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await lockedEvent(trx, schoolId, eventId);
    const school = await loadSchool(trx, schoolId);
    await checkSection(trx, school, event, body);
    const sectionId = await repo.insertSection(trx, schoolId, eventId, sectionValues(body, school));
    await repo.replaceSectionTeachers(trx, schoolId, sectionId, teachersOf(body));
    const desired = plannedSlots(event, body, body.teachers, school.timezone);
    const change = await diffSection(trx, schoolId, sectionId, desired);
    await applyChanges(ctx, trx, school, event, [change], false, 'This section');
    return {
      id: sectionId,
      message: EVENT_TEXT.sectionCreated,
      slotCount: desired.length,
      cancelledBookings: 0,
    };
  });
}

export async function updateSection(ctx: AppContext, schoolId: number, sectionId: number, body: SectionBody) {
  return ctx.db.transaction().execute(async (trx) => {
    const found = await repo.findSection(trx, schoolId, sectionId);
    if (!found) throw notFound(EVENT_TEXT.sectionNotFound);
    const event = await lockedEvent(trx, schoolId, found.event_id);
    const school = await loadSchool(trx, schoolId);
    await checkSection(trx, school, event, body);
    const desired = plannedSlots(event, body, body.teachers, school.timezone);
    const change = await diffSection(trx, schoolId, sectionId, desired);
    // Checked before anything is written: a refused change leaves the section as it was.
    if (change.affected.length > 0 && !body.confirm) {
      throw affectedConflict(change.affected, school.timezone, 'This change');
    }
    await repo.updateSection(trx, schoolId, sectionId, sectionValues(body, school));
    // Slots of teachers leaving the section go first (their bookings are already in change.affected).
    const cancelled = await applyChanges(ctx, trx, school, event, [change], true, 'This change');
    await repo.replaceSectionTeachers(trx, schoolId, sectionId, teachersOf(body));
    return {
      id: sectionId,
      message: EVENT_TEXT.sectionSaved,
      slotCount: desired.length,
      cancelledBookings: cancelled,
    };
  });
}

export async function deleteSection(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  sectionId: number,
  confirm: boolean,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await lockedEvent(trx, schoolId, eventId);
    const section = await repo.findSection(trx, schoolId, sectionId);
    if (!section || section.event_id !== eventId) throw notFound(EVENT_TEXT.sectionNotFound);
    const school = await loadSchool(trx, schoolId);
    const change = await diffSection(trx, schoolId, sectionId, []);
    if (change.affected.length > 0 && !confirm) {
      throw affectedConflict(change.affected, school.timezone, 'Deleting this section');
    }
    await cancelAndNotify(ctx, trx, school, event, change.affected, 'timesChanged');
    await repo.deleteSection(trx, schoolId, sectionId);
    return {
      id: sectionId,
      message: EVENT_TEXT.sectionDeleted,
      slotCount: 0,
      cancelledBookings: change.affected.length,
    };
  });
}

/**
 * Regenerates every section's slots of a locked event after its slot length or break changed
 * (events.update). All sections are checked before any is changed.
 */
export async function regenerateEventSlots(
  ctx: AppContext,
  trx: Db,
  school: School,
  event: repo.EventRow,
  confirm: boolean,
): Promise<number> {
  const sections = await repo.listSections(trx, school.id, event.id);
  const teachers = await repo.listSectionTeachers(trx, school.id, { eventId: event.id });
  const changes: SlotChange[] = [];
  for (const section of sections) {
    const own = teachers
      .filter((teacher) => teacher.section_id === section.id)
      .map((teacher) => ({ teacherId: teacher.teacher_id, unavailable: teacher.unavailable }));
    const times = { date: section.date, start: section.start_time, end: section.end_time };
    const errors = sectionErrors(event, times, own, school.timezone);
    if (Object.keys(errors).length) {
      throw unprocessable(SERVER_TEXT.invalidInput, {
        slotMinutes: [
          `Section ${formatLocalDateTime(section.starts_at, school.timezone)}: ${Object.values(errors).flat().join('; ')}`,
        ],
      });
    }
    changes.push(
      await diffSection(trx, school.id, section.id, plannedSlots(event, times, own, school.timezone)),
    );
  }
  return applyChanges(ctx, trx, school, event, changes, confirm, 'This change');
}
