import type { BookableGroup, BookableSlot, MyBooking, SubjectTeacherItem } from '@parley/domain/booking';
import type { BookingChildRef } from './pt-selection';

// The live grid of the times step: one column per teacher, one row per start time, in the school's zone
// (the server's labels; instants are only compared here, never formatted). A parent holds one slot per
// teacher: siblings who see the same teacher share that slot (one appointment, one booking row per child),
// as the server's constraints have it. Desktop shows a table of every column; a phone one column at a time.

export type ColumnStudent = {
  studentId: number;
  name: string;
  subjectId: number | null;
  subjectName: string | null;
};

export type Column = {
  key: string;
  teacherId: number;
  teacherName: string;
  /** The chosen children who see this teacher. */
  students: ColumnStudent[];
  /** The family's live bookings with this teacher (all in one slot). */
  bookings: MyBooking[];
  /** That slot, or null when nothing is booked with this teacher. */
  bookedSlotId: number | null;
  /** Chosen children not in the booked slot yet (they can join it). */
  missing: ColumnStudent[];
};

export type CellState = 'free' | 'taken' | 'mine' | 'picked' | 'clash';

export type Cell = {
  slotId: number;
  startsAt: string;
  time: string;
  endTime: string;
  location: string | null;
  free: number;
  state: CellState;
  /** Clicking it picks (or un-picks) the slot for its column. */
  selectable: boolean;
};

export type GridSection = {
  sectionId: number;
  dateLabel: string;
  /** Indexes into the model's columns that have slots in this section. */
  columns: number[];
  rows: Array<{ startsAt: string; time: string; cells: Array<Cell | null> }>;
};

export type TimesGrid = { columns: Column[]; sections: GridSection[] };

/** Picked slot per column key. */
export type Picks = Readonly<Record<string, number>>;

export const columnKey = (teacherId: number) => `teacher-${teacherId}`;

const live = (bookings: readonly MyBooking[]) => bookings.filter((booking) => booking.status === 'booked');

/** "Alice Park and Ben Park". */
export const studentNames = (students: readonly Pick<ColumnStudent, 'name'>[]) =>
  students.map((student) => student.name).join(' and ');

export function buildColumns(
  items: readonly SubjectTeacherItem[],
  grid: readonly BookableGroup[],
  bookings: readonly MyBooking[],
  children: readonly BookingChildRef[],
  teacherNames: ReadonlyMap<number, string>,
  subjectNames: ReadonlyMap<number, string> = new Map(),
): Column[] {
  const teacherIds: number[] = [];
  for (const item of items) if (!teacherIds.includes(item.teacherId)) teacherIds.push(item.teacherId);
  return teacherIds.map((teacherId) => {
    const groups = grid.filter((group) => group.teacherId === teacherId);
    const withTeacher = live(bookings).filter((booking) => booking.teacherId === teacherId);
    const students = items
      .filter((item) => item.teacherId === teacherId)
      .map((item): ColumnStudent => {
        const subjectId = item.subjectId ?? null;
        const booking = withTeacher.find((entry) => entry.studentId === item.studentId);
        return {
          studentId: item.studentId,
          name: children.find((child) => child.id === item.studentId)?.name ?? booking?.studentName ?? '',
          subjectId,
          subjectName:
            groups.flatMap((group) => group.subjects).find((subject) => subject.id === subjectId)?.name ??
            (subjectId === null ? undefined : subjectNames.get(subjectId)) ??
            booking?.subjectName ??
            null,
        };
      });
    const bookedSlotId = withTeacher[0]?.slotId ?? null;
    return {
      key: columnKey(teacherId),
      teacherId,
      teacherName: groups[0]?.teacherName ?? teacherNames.get(teacherId) ?? withTeacher[0]?.teacherName ?? '',
      students,
      bookings: withTeacher,
      bookedSlotId,
      missing:
        bookedSlotId === null
          ? []
          : students.filter(
              (student) => !withTeacher.some((booking) => booking.studentId === student.studentId),
            ),
    };
  });
}

type Span = { start: number; end: number };
const spanOf = (slot: { startsAt: string; endsAt: string }): Span => ({
  start: Date.parse(slot.startsAt),
  end: Date.parse(slot.endsAt),
});
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** A pick that moves the column away from its booked slot (or books an unbooked column). */
const moves = (column: Column, slotId: number | undefined) =>
  slotId !== undefined && slotId !== column.bookedSlotId;

/**
 * Every column's slots laid out per section. `changing`: the column whose booked time is being changed
 * (its free slots become selectable). A slot that overlaps another booking or pick of the family is a
 * clash: one parent cannot be in two places. A booked slot with chosen children not in it yet can be
 * picked to add them.
 */
export function buildTimesGrid(
  columns: readonly Column[],
  grid: readonly BookableGroup[],
  bookings: readonly MyBooking[],
  picks: Picks,
  changing: string | null,
): TimesGrid {
  const slotsById = new Map<number, BookableSlot>();
  for (const group of grid) for (const slot of group.slots) slotsById.set(slot.id, slot);
  const mine = live(bookings);

  // What the family is already committed to outside a column: other columns' picks and bookings (a pick
  // that moves a column replaces its booking), and bookings with teachers not in the grid.
  const commitments = (except: Column): Span[] => {
    const spans: Span[] = [];
    for (const column of columns) {
      if (column.key === except.key) continue;
      const picked = picks[column.key];
      const pickedSlot = picked === undefined ? undefined : slotsById.get(picked);
      if (pickedSlot) spans.push(spanOf(pickedSlot));
      if (!(pickedSlot && moves(column, picked))) spans.push(...column.bookings.map(spanOf));
    }
    for (const booking of mine) {
      if (booking.teacherId === except.teacherId) continue;
      if (columns.some((column) => column.teacherId === booking.teacherId)) continue;
      spans.push(spanOf(booking));
    }
    return spans;
  };

  const cellFor = (column: Column, slot: BookableSlot, busy: Span[]): Cell => {
    const isMine = column.bookedSlotId === slot.id;
    const picked = picks[column.key] === slot.id;
    const canMove = column.bookedSlotId === null || column.key === changing;
    let state: CellState;
    let selectable: boolean;
    // A pick holds only while its slot is still free and clashes with nothing (the grid is live).
    if (isMine) {
      state = picked ? 'picked' : 'mine';
      selectable = column.missing.length > 0 && column.key !== changing;
    } else if (slot.free <= 0) {
      state = 'taken';
      selectable = false;
    } else if (busy.some((span) => overlaps(span, spanOf(slot)))) {
      state = 'clash';
      selectable = false;
    } else {
      state = picked ? 'picked' : 'free';
      selectable = canMove;
    }
    return {
      slotId: slot.id,
      startsAt: slot.startsAt,
      time: slot.time,
      endTime: slot.endTime,
      location: slot.location,
      free: slot.free,
      state,
      selectable,
    };
  };

  const sectionIds: number[] = [];
  for (const group of grid) if (!sectionIds.includes(group.sectionId)) sectionIds.push(group.sectionId);

  const sections = sectionIds.flatMap((sectionId): GridSection[] => {
    const groups = grid.filter((group) => group.sectionId === sectionId);
    const columnIndexes = columns
      .map((column, index) => ({ column, index }))
      .filter(({ column }) => groups.some((group) => group.teacherId === column.teacherId))
      .map(({ index }) => index);
    if (columnIndexes.length === 0) return [];
    const starts = new Map<string, string>();
    for (const index of columnIndexes) {
      const group = groups.find((entry) => entry.teacherId === columns[index]?.teacherId);
      for (const slot of group?.slots ?? [])
        if (!starts.has(slot.startsAt)) starts.set(slot.startsAt, slot.time);
    }
    const ordered = [...starts.entries()].sort(([a], [b]) => Date.parse(a) - Date.parse(b));
    const perColumn = columnIndexes.map((index) => {
      const column = columns[index] as Column;
      const group = groups.find((entry) => entry.teacherId === column.teacherId);
      const busy = commitments(column);
      return new Map((group?.slots ?? []).map((slot) => [slot.startsAt, cellFor(column, slot, busy)]));
    });
    return [
      {
        sectionId,
        dateLabel: groups[0]?.dateLabel ?? '',
        columns: columnIndexes,
        rows: ordered.map(([startsAt, time]) => ({
          startsAt,
          time,
          cells: perColumn.map((cells) => cells.get(startsAt) ?? null),
        })),
      },
    ];
  });

  return { columns: [...columns], sections };
}

/** A phone shows one column: its slots per section (days without slots for it are left out). */
export function columnView(model: TimesGrid, key: string) {
  const index = model.columns.findIndex((column) => column.key === key);
  if (index < 0) return [];
  return model.sections.flatMap((section) => {
    const at = section.columns.indexOf(index);
    if (at < 0) return [];
    const cells = section.rows.map((row) => row.cells[at]).filter((cell): cell is Cell => Boolean(cell));
    return cells.length > 0 ? [{ sectionId: section.sectionId, dateLabel: section.dateLabel, cells }] : [];
  });
}

/** Picks or un-picks a slot for a column (one slot per teacher). */
export function togglePick(picks: Picks, key: string, slotId: number): Picks {
  const next = { ...picks };
  if (next[key] === slotId) delete next[key];
  else next[key] = slotId;
  return next;
}

/** Drops picks that are no longer selectable (the slot was taken, or the column left the choice). */
export function validPicks(model: TimesGrid, picks: Picks): Picks {
  const next: Record<string, number> = {};
  for (const [key, slotId] of Object.entries(picks)) {
    const index = model.columns.findIndex((column) => column.key === key);
    if (index < 0) continue;
    const cell = model.sections
      .flatMap((section) => {
        const at = section.columns.indexOf(index);
        return at < 0 ? [] : section.rows.map((row) => row.cells[at]);
      })
      .find((entry) => entry?.slotId === slotId);
    if (cell?.state === 'picked' && cell.selectable) next[key] = slotId;
  }
  return next;
}

export type BookRequest = {
  items: Array<{ slotId: number; studentId: number; subjectId: number | null }>;
  cancelBookingIds: number[];
};

/**
 * The update-slot-for-booking body for the picks. A new slot for a column books every child of it there
 * and, for a change, cancels the column's old bookings in the same call. Picking the booked slot itself
 * adds the chosen children who are not in it yet.
 */
export function pickRequest(columns: readonly Column[], picks: Picks): BookRequest {
  const request: BookRequest = { items: [], cancelBookingIds: [] };
  for (const column of columns) {
    const slotId = picks[column.key];
    if (slotId === undefined) continue;
    if (!moves(column, slotId)) {
      for (const student of column.missing) {
        request.items.push({ slotId, studentId: student.studentId, subjectId: student.subjectId });
      }
      continue;
    }
    const movedIds = new Set(column.students.map((student) => student.studentId));
    for (const student of column.students) {
      request.items.push({ slotId, studentId: student.studentId, subjectId: student.subjectId });
    }
    // Children booked with this teacher but not ticked now move too: one appointment per teacher.
    for (const booking of column.bookings) {
      if (booking.studentId !== null && !movedIds.has(booking.studentId)) {
        movedIds.add(booking.studentId);
        request.items.push({ slotId, studentId: booking.studentId, subjectId: booking.subjectId });
      }
      request.cancelBookingIds.push(booking.id);
    }
  }
  return request;
}

/** "Arrange for me" places one appointment per teacher not booked yet (siblings share it). */
export function itemsToArrange(columns: readonly Column[]): SubjectTeacherItem[] {
  return columns
    .filter((column) => column.bookedSlotId === null && column.students.length > 0)
    .map((column) => {
      const first = column.students[0] as ColumnStudent;
      return { studentId: first.studentId, teacherId: column.teacherId, subjectId: first.subjectId };
    });
}

/** The booking of a proposal: each teacher's slot for every child who sees that teacher. */
export function proposalRequest(
  columns: readonly Column[],
  proposal: ReadonlyArray<{ slotId: number; teacherId: number }>,
): BookRequest {
  const items = proposal.flatMap((item) =>
    (columns.find((column) => column.teacherId === item.teacherId)?.students ?? []).map((student) => ({
      slotId: item.slotId,
      studentId: student.studentId,
      subjectId: student.subjectId,
    })),
  );
  return { items, cancelBookingIds: [] };
}

/** The accessible name of a cell: "16:10 Mr Smith for Alice Park and Ben Park: free". */
export function cellLabel(cell: Cell, column: Column, stateText: Record<CellState, string>): string {
  return `${cell.time} ${column.teacherName} for ${studentNames(column.students)}: ${stateText[cell.state]}`;
}
