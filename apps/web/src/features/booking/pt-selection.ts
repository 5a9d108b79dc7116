import type { BookingPage, MyBooking, SubjectTeacherItem } from '@parley/domain/booking';

// The parent-teacher choice (steps 1 and 2 of the booking flow): which children, and which teachers to
// see about each. One appointment per teacher per child; siblings are booked in one flow.

export type Appointment = { studentId: number; teacherId: number; subjectId: number | null };

export type PtSelection = {
  /** The children being booked for, in the order of the page's children. */
  childIds: number[];
  /** The chosen appointments (all children, also those not currently ticked in step 1). */
  chosen: Appointment[];
  /** Teachers added with "Add a teacher" (listed under the child even when unticked again). */
  added: Appointment[];
};

export type BookingChildRef = { id: number; name: string };

export type TeacherRow = {
  teacherId: number;
  name: string;
  /** "Maths, Physics", or null */
  subjects: string | null;
  subjectId: number | null;
  /** The teacher has slots at this event (rows that are not are listed disabled). */
  inEvent: boolean;
  checked: boolean;
  /** The child already has an appointment with this teacher. */
  booked: boolean;
  /** Listed because of "Add a teacher" or a booking, not the child's own teachers. */
  added: boolean;
};

const same = (a: Appointment, studentId: number, teacherId: number) =>
  a.studentId === studentId && a.teacherId === teacherId;

const live = (bookings: readonly MyBooking[]) => bookings.filter((booking) => booking.status === 'booked');

/** The children the viewer books for: a parent's children, or a student themselves. */
export function bookingChildren(page: BookingPage): BookingChildRef[] {
  if (page.viewer?.bookAs === 'student' && page.studentId !== null) {
    const self = page.children.find((child) => child.id === page.studentId);
    return [{ id: page.studentId, name: self?.name ?? page.viewer.name }];
  }
  return page.children.map((child) => ({ id: child.id, name: child.name }));
}

function childTeachers(page: BookingPage, childId: number) {
  return page.children.find((child) => child.id === childId)?.teachers ?? [];
}

/** Every child ticked; each child's teachers at this event pre-chosen, plus those already booked. */
export function initialSelection(page: BookingPage): PtSelection {
  const children = bookingChildren(page);
  const chosen: Appointment[] = [];
  const added: Appointment[] = [];
  for (const child of children) {
    for (const teacher of childTeachers(page, child.id)) {
      if (teacher.inEvent && !chosen.some((item) => same(item, child.id, teacher.teacherId))) {
        chosen.push({ studentId: child.id, teacherId: teacher.teacherId, subjectId: teacher.subjectId });
      }
    }
  }
  for (const booking of live(page.bookings)) {
    if (booking.studentId === null || booking.teacherId === null) continue;
    if (!children.some((child) => child.id === booking.studentId)) continue;
    if (chosen.some((item) => same(item, booking.studentId ?? 0, booking.teacherId ?? 0))) continue;
    const item = { studentId: booking.studentId, teacherId: booking.teacherId, subjectId: booking.subjectId };
    chosen.push(item);
    if (!childTeachers(page, booking.studentId).some((teacher) => teacher.teacherId === booking.teacherId)) {
      added.push(item);
    }
  }
  return { childIds: children.map((child) => child.id), chosen, added };
}

export function toggleChild(selection: PtSelection, childId: number, order: readonly number[]): PtSelection {
  const has = selection.childIds.includes(childId);
  const next = has ? selection.childIds.filter((id) => id !== childId) : [...selection.childIds, childId];
  return { ...selection, childIds: order.filter((id) => next.includes(id)) };
}

/** How many appointments are chosen for a child. */
export const chosenCount = (selection: PtSelection, childId: number) =>
  selection.chosen.filter((item) => item.studentId === childId).length;

/** The event's limit of appointments per child is reached (null: no limit). */
export const limitReached = (selection: PtSelection, childId: number, limit: number | null) =>
  limit !== null && chosenCount(selection, childId) >= limit;

/** The rows of step 2 for one child: their own teachers (merged per teacher), then added ones. */
export function teacherRows(page: BookingPage, selection: PtSelection, childId: number): TeacherRow[] {
  const bookedTeacherIds = new Set(
    live(page.bookings)
      .filter((booking) => booking.studentId === childId)
      .map((booking) => booking.teacherId),
  );
  const rows: TeacherRow[] = [];
  const chosenFor = (teacherId: number) => selection.chosen.find((item) => same(item, childId, teacherId));
  for (const teacher of childTeachers(page, childId)) {
    const existing = rows.find((row) => row.teacherId === teacher.teacherId);
    if (existing) {
      if (teacher.subjectName) {
        existing.subjects = existing.subjects
          ? `${existing.subjects}, ${teacher.subjectName}`
          : teacher.subjectName;
      }
      existing.inEvent ||= teacher.inEvent;
      continue;
    }
    const chosen = chosenFor(teacher.teacherId);
    rows.push({
      teacherId: teacher.teacherId,
      name: teacher.teacherName,
      subjects: teacher.subjectName,
      subjectId: chosen?.subjectId ?? teacher.subjectId,
      inEvent: teacher.inEvent,
      checked: chosen !== undefined,
      booked: bookedTeacherIds.has(teacher.teacherId),
      added: false,
    });
  }
  for (const item of selection.added) {
    if (item.studentId !== childId || rows.some((row) => row.teacherId === item.teacherId)) continue;
    const teacher = page.teachers.find((entry) => entry.teacherId === item.teacherId);
    const booking = live(page.bookings).find((entry) => same(entryOf(entry), childId, item.teacherId));
    const subjectName =
      teacher?.subjects.find((subject) => subject.id === item.subjectId)?.name ??
      booking?.subjectName ??
      null;
    rows.push({
      teacherId: item.teacherId,
      name: teacher?.name ?? booking?.teacherName ?? '',
      subjects: subjectName,
      subjectId: item.subjectId,
      inEvent: teacher !== undefined,
      checked: chosenFor(item.teacherId) !== undefined,
      booked: bookedTeacherIds.has(item.teacherId),
      added: true,
    });
  }
  return rows;
}

function entryOf(booking: MyBooking): Appointment {
  return {
    studentId: booking.studentId ?? 0,
    teacherId: booking.teacherId ?? 0,
    subjectId: booking.subjectId,
  };
}

/** Ticks or unticks a teacher for a child; ticking past the event's limit does nothing. */
export function toggleTeacher(
  selection: PtSelection,
  childId: number,
  row: Pick<TeacherRow, 'teacherId' | 'subjectId' | 'inEvent'>,
  limit: number | null,
): PtSelection {
  if (selection.chosen.some((item) => same(item, childId, row.teacherId))) {
    return { ...selection, chosen: selection.chosen.filter((item) => !same(item, childId, row.teacherId)) };
  }
  if (!row.inEvent || limitReached(selection, childId, limit)) return selection;
  return {
    ...selection,
    chosen: [...selection.chosen, { studentId: childId, teacherId: row.teacherId, subjectId: row.subjectId }],
  };
}

/** The event's teachers a child could still add (not already listed for the child). */
export function addableTeachers(page: BookingPage, selection: PtSelection, childId: number) {
  const listed = new Set(teacherRows(page, selection, childId).map((row) => row.teacherId));
  return page.teachers.filter((teacher) => !listed.has(teacher.teacherId));
}

/** "Add a teacher": listed under the child and chosen (within the limit), with their first subject. */
export function addTeacher(
  page: BookingPage,
  selection: PtSelection,
  childId: number,
  teacherId: number,
  limit: number | null,
): PtSelection {
  const teacher = page.teachers.find((entry) => entry.teacherId === teacherId);
  if (!teacher || selection.added.some((item) => same(item, childId, teacherId))) return selection;
  const item = { studentId: childId, teacherId, subjectId: teacher.subjects[0]?.id ?? null };
  const withRow = { ...selection, added: [...selection.added, item] };
  return toggleTeacher(withRow, childId, { teacherId, subjectId: item.subjectId, inEvent: true }, limit);
}

/** The appointments of the ticked children, in child order then choice order (subjectTeacherData). */
export function selectedItems(selection: PtSelection): SubjectTeacherItem[] {
  return selection.childIds.flatMap((childId) =>
    selection.chosen
      .filter((item) => item.studentId === childId)
      .map((item) => ({ studentId: item.studentId, teacherId: item.teacherId, subjectId: item.subjectId })),
  );
}

/** Ensures a booked appointment is part of the choice (its "Change" opens the times step). */
export function withAppointment(selection: PtSelection, booking: MyBooking): PtSelection {
  if (booking.studentId === null || booking.teacherId === null) return selection;
  const item = { studentId: booking.studentId, teacherId: booking.teacherId, subjectId: booking.subjectId };
  const childIds = selection.childIds.includes(item.studentId)
    ? selection.childIds
    : [...selection.childIds, item.studentId];
  const chosen = selection.chosen.some((entry) => same(entry, item.studentId, item.teacherId))
    ? selection.chosen
    : [...selection.chosen, item];
  return { ...selection, childIds, chosen };
}
