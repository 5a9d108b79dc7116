import { describe, expect, it } from 'vitest';
import {
  addableTeachers,
  addTeacher,
  bookingChildren,
  initialSelection,
  limitReached,
  selectedItems,
  teacherRows,
  toggleChild,
  toggleTeacher,
  withAppointment,
} from './pt-selection';
import { ALICE, BEN, booking, ptEvent, ptPage, TEACHERS } from './test-fixtures';

describe('parent-teacher choice', () => {
  it('ticks every child and pre-chooses each child’s teachers at the event', () => {
    const page = ptPage();
    const selection = initialSelection(page);
    expect(selection.childIds).toEqual([ALICE, BEN]);
    expect(selectedItems(selection)).toEqual([
      { studentId: ALICE, teacherId: 11, subjectId: 1 },
      { studentId: ALICE, teacherId: 12, subjectId: 2 },
      { studentId: BEN, teacherId: 11, subjectId: 1 },
      { studentId: BEN, teacherId: 13, subjectId: 3 },
    ]);
  });

  it('lists a teacher who is not at the event disabled and unticked', () => {
    const page = ptPage();
    const rows = teacherRows(page, initialSelection(page), ALICE);
    expect(rows.map((row) => [row.name, row.inEvent, row.checked])).toEqual([
      ['Mr Smith', true, true],
      ['Ms Jones', true, true],
      ['Mr Grey', false, false],
    ]);
    const selection = toggleTeacher(initialSelection(page), ALICE, rows[2] as (typeof rows)[number], null);
    expect(selectedItems(selection)).toHaveLength(4);
  });

  it('merges a teacher listed twice for a child (two subjects) into one appointment', () => {
    const page = ptPage();
    const alice = page.children[0];
    alice?.teachers.push({
      teacherId: 11,
      teacherName: 'Mr Smith',
      subjectId: 6,
      subjectName: 'Statistics',
      inEvent: true,
    });
    const selection = initialSelection(page);
    expect(
      selectedItems(selection).filter((item) => item.studentId === ALICE && item.teacherId === 11),
    ).toHaveLength(1);
    expect(teacherRows(page, selection, ALICE)[0]?.subjects).toBe('Maths, Statistics');
  });

  it('books only the ticked children', () => {
    const page = ptPage();
    const order = [ALICE, BEN];
    const withoutAlice = toggleChild(initialSelection(page), ALICE, order);
    expect(withoutAlice.childIds).toEqual([BEN]);
    expect(selectedItems(withoutAlice).every((item) => item.studentId === BEN)).toBe(true);
    expect(toggleChild(withoutAlice, ALICE, order).childIds).toEqual([ALICE, BEN]);
  });

  it('adds a teacher of the event for one child, with their first subject', () => {
    const page = ptPage();
    const selection = initialSelection(page);
    expect(addableTeachers(page, selection, ALICE).map((teacher) => teacher.name)).toEqual([
      'Dr Brown',
      'Mrs Green',
    ]);
    const next = addTeacher(page, selection, ALICE, TEACHERS.green.teacherId, null);
    expect(selectedItems(next)).toContainEqual({ studentId: ALICE, teacherId: 14, subjectId: 4 });
    const rows = teacherRows(page, next, ALICE);
    expect(rows.at(-1)).toMatchObject({ name: 'Mrs Green', subjects: 'History', added: true, checked: true });
    // Unticking keeps the row listed.
    const unticked = toggleTeacher(next, ALICE, rows.at(-1) as (typeof rows)[number], null);
    expect(teacherRows(page, unticked, ALICE).at(-1)).toMatchObject({ name: 'Mrs Green', checked: false });
    expect(addableTeachers(page, next, ALICE).map((teacher) => teacher.name)).toEqual(['Dr Brown']);
  });

  it('honours the per-child limit of appointments', () => {
    const page = ptPage({
      event: ptEvent({ options: { ...ptEvent().options, maxAppointmentsPerChild: 2 } }),
    });
    const selection = initialSelection(page);
    expect(limitReached(selection, ALICE, 2)).toBe(true);
    const blocked = addTeacher(page, selection, ALICE, TEACHERS.green.teacherId, 2);
    expect(selectedItems(blocked).some((item) => item.teacherId === 14)).toBe(false);
    const fewer = toggleTeacher(selection, ALICE, { teacherId: 12, subjectId: 2, inEvent: true }, 2);
    expect(limitReached(fewer, ALICE, 2)).toBe(false);
  });

  it('keeps booked teachers chosen (also one added earlier) and marks them', () => {
    const page = ptPage({ bookings: [booking(901, TEACHERS.green, BEN, '16:20')] });
    const selection = initialSelection(page);
    expect(selectedItems(selection)).toContainEqual({ studentId: BEN, teacherId: 14, subjectId: 4 });
    expect(teacherRows(page, selection, BEN).at(-1)).toMatchObject({
      name: 'Mrs Green',
      booked: true,
      added: true,
    });
  });

  it('brings a booking being changed back into the choice', () => {
    const page = ptPage();
    const none = { childIds: [], chosen: [], added: [] };
    const next = withAppointment(none, booking(902, TEACHERS.jones, ALICE, '16:00'));
    expect(selectedItems(next)).toEqual([{ studentId: ALICE, teacherId: 12, subjectId: 2 }]);
    expect(bookingChildren(page).map((child) => child.name)).toEqual(['Alice Park', 'Ben Park']);
  });

  it('lets a student book for themselves', () => {
    const page = ptPage({
      studentId: ALICE,
      viewer: {
        userId: ALICE,
        name: 'Alice Park',
        email: 'alice@park.test',
        bookAs: 'student',
        viaLink: false,
      },
      children: [],
    });
    expect(bookingChildren(page)).toEqual([{ id: ALICE, name: 'Alice Park' }]);
    expect(initialSelection(page).childIds).toEqual([ALICE]);
  });
});
