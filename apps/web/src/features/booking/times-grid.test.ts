import { describe, expect, it } from 'vitest';
import { BOOKING_UI } from './booking-text';
import { ALICE, BEN, booking, slotId, TEACHERS, teacherGroup } from './test-fixtures';
import {
  buildColumns,
  buildTimesGrid,
  cellLabel,
  columnKey,
  columnView,
  itemsToArrange,
  pickRequest,
  proposalRequest,
  togglePick,
  validPicks,
} from './times-grid';

const children = [
  { id: ALICE, name: 'Alice Park' },
  { id: BEN, name: 'Ben Park' },
];
const names = new Map<number, string>([[14, 'Mrs Green']]);
const items = [
  { studentId: ALICE, teacherId: 11, subjectId: 1 },
  { studentId: ALICE, teacherId: 12, subjectId: 2 },
  { studentId: BEN, teacherId: 11, subjectId: 1 },
  { studentId: BEN, teacherId: 13, subjectId: 3 },
];
const grid = [
  teacherGroup(TEACHERS.smith, { free: { '16:10': 0 } }),
  teacherGroup(TEACHERS.jones),
  teacherGroup(TEACHERS.brown),
];
const SMITH = columnKey(11);
const JONES = columnKey(12);
const BROWN = columnKey(13);

const states = (model: ReturnType<typeof buildTimesGrid>, key: string) =>
  columnView(model, key).flatMap((day) =>
    day.cells.map((cell) => `${cell.time} ${cell.state}${cell.selectable ? '' : '!'}`),
  );

describe('times grid', () => {
  it('has one column per teacher; siblings who see the same teacher share it', () => {
    const columns = buildColumns(items, grid, [], children, names);
    expect(columns.map((column) => [column.key, column.teacherName])).toEqual([
      [SMITH, 'Mr Smith'],
      [JONES, 'Ms Jones'],
      [BROWN, 'Dr Brown'],
    ]);
    expect(columns[0]?.students).toEqual([
      { studentId: ALICE, name: 'Alice Park', subjectId: 1, subjectName: 'Maths' },
      { studentId: BEN, name: 'Ben Park', subjectId: 1, subjectName: 'Maths' },
    ]);
    expect(columns[0]?.bookedSlotId).toBeNull();
  });

  it('names a subject from the event’s teachers when the grid does not', () => {
    const bare = grid.map((group) => ({ ...group, subjects: [] }));
    const columns = buildColumns(items, bare, [], children, names, new Map([[1, 'Maths']]));
    expect(columns[0]?.students.map((student) => student.subjectName)).toEqual(['Maths', 'Maths']);
    expect(buildColumns(items, bare, [], children, names)[0]?.students[0]?.subjectName).toBeNull();
  });

  it('lays rows out by start time with free, taken, mine and clash states', () => {
    const mine = booking(900, TEACHERS.smith, BEN, '16:20');
    const columns = buildColumns(items, grid, [mine], children, names);
    const model = buildTimesGrid(columns, grid, [mine], {}, null);
    expect(model.sections).toHaveLength(1);
    expect(model.sections[0]?.rows.map((row) => row.time)).toEqual(['16:00', '16:10', '16:20', '16:30']);
    // Mr Smith: booked at 16:20 for Ben; Alice is not in it yet, so that time can be picked to add her.
    expect(columns[0]?.missing.map((student) => student.name)).toEqual(['Alice Park']);
    expect(states(model, SMITH)).toEqual(['16:00 free!', '16:10 taken!', '16:20 mine', '16:30 free!']);
    // Ms Jones at 16:20 would clash with the Smith appointment.
    expect(states(model, JONES)).toEqual(['16:00 free', '16:10 free', '16:20 clash!', '16:30 free']);
  });

  it('picks one slot per column and marks what would clash with it', () => {
    const columns = buildColumns(items, grid, [], children, names);
    let picks = togglePick({}, SMITH, slotId(11, '16:00'));
    picks = togglePick(picks, SMITH, slotId(11, '16:30')); // a second pick replaces the first
    expect(picks).toEqual({ [SMITH]: slotId(11, '16:30') });
    const model = buildTimesGrid(columns, grid, [], picks, null);
    expect(states(model, SMITH)).toEqual(['16:00 free', '16:10 taken!', '16:20 free', '16:30 picked']);
    expect(states(model, JONES)[3]).toBe('16:30 clash!');
    expect(togglePick(picks, SMITH, slotId(11, '16:30'))).toEqual({});
  });

  it('books every child of a column at the picked slot', () => {
    const columns = buildColumns(items, grid, [], children, names);
    expect(pickRequest(columns, { [SMITH]: slotId(11, '16:00'), [JONES]: slotId(12, '16:10') })).toEqual({
      items: [
        { slotId: slotId(11, '16:00'), studentId: ALICE, subjectId: 1 },
        { slotId: slotId(11, '16:00'), studentId: BEN, subjectId: 1 },
        { slotId: slotId(12, '16:10'), studentId: ALICE, subjectId: 2 },
      ],
      cancelBookingIds: [],
    });
  });

  it('sends a change as the new slot for the column plus its old bookings to cancel', () => {
    const mine = [booking(900, TEACHERS.smith, ALICE, '16:20'), booking(901, TEACHERS.smith, BEN, '16:20')];
    const columns = buildColumns(items, grid, mine, children, names);
    expect(pickRequest(columns, { [SMITH]: slotId(11, '16:30') })).toEqual({
      items: [
        { slotId: slotId(11, '16:30'), studentId: ALICE, subjectId: 1 },
        { slotId: slotId(11, '16:30'), studentId: BEN, subjectId: 1 },
      ],
      cancelBookingIds: [900, 901],
    });
    // A child booked with the teacher but not ticked now moves along (one appointment per teacher).
    const aliceOnly = buildColumns(items.slice(0, 2), grid, mine, children, names);
    expect(
      pickRequest(aliceOnly, { [SMITH]: slotId(11, '16:30') }).items.map((item) => item.studentId),
    ).toEqual([ALICE, BEN]);
    // The booked slot itself, with everyone in it, is no change.
    expect(pickRequest(columns, { [SMITH]: slotId(11, '16:20') })).toEqual({
      items: [],
      cancelBookingIds: [],
    });
  });

  it('adds a sibling to the booked slot when that slot is picked', () => {
    const mine = [booking(900, TEACHERS.smith, BEN, '16:20')];
    const columns = buildColumns(items, grid, mine, children, names);
    const picks = { [SMITH]: slotId(11, '16:20') };
    const model = buildTimesGrid(columns, grid, mine, picks, null);
    expect(states(model, SMITH)[2]).toBe('16:20 picked');
    expect(validPicks(model, picks)).toEqual(picks);
    expect(pickRequest(columns, picks)).toEqual({
      items: [{ slotId: slotId(11, '16:20'), studentId: ALICE, subjectId: 1 }],
      cancelBookingIds: [],
    });
  });

  it('lets a booked column move only while it is being changed', () => {
    const mine = [booking(900, TEACHERS.smith, ALICE, '16:20'), booking(901, TEACHERS.smith, BEN, '16:20')];
    const columns = buildColumns(items, grid, mine, children, names);
    const changing = buildTimesGrid(columns, grid, mine, {}, SMITH);
    expect(states(changing, SMITH)).toEqual(['16:00 free', '16:10 taken!', '16:20 mine!', '16:30 free']);
    const picked = { [SMITH]: slotId(11, '16:00') };
    expect(validPicks(buildTimesGrid(columns, grid, mine, picked, null), picked)).toEqual({});
    expect(validPicks(buildTimesGrid(columns, grid, mine, picked, SMITH), picked)).toEqual(picked);
    // Moving Smith to 16:00 frees 16:20 for the others: Ms Jones at 16:20 no longer clashes.
    expect(states(buildTimesGrid(columns, grid, mine, picked, SMITH), JONES)[2]).toBe('16:20 free');
  });

  it('drops a pick once the fresh grid shows its slot taken', () => {
    const columns = buildColumns(items, grid, [], children, names);
    const picks = { [SMITH]: slotId(11, '16:00') };
    const fresh = [teacherGroup(TEACHERS.smith, { free: { '16:00': 0 } }), teacherGroup(TEACHERS.jones)];
    expect(validPicks(buildTimesGrid(columns, fresh, [], picks, null), picks)).toEqual({});
    expect(validPicks(buildTimesGrid(columns, grid, [], picks, null), picks)).toEqual(picks);
  });

  it('arranges one appointment per unbooked teacher, then books it for every child of that teacher', () => {
    const mine = [booking(900, TEACHERS.brown, BEN, '16:20')];
    const columns = buildColumns(items, grid, mine, children, names);
    expect(itemsToArrange(columns)).toEqual([
      { studentId: ALICE, teacherId: 11, subjectId: 1 },
      { studentId: ALICE, teacherId: 12, subjectId: 2 },
    ]);
    expect(
      proposalRequest(columns, [
        { slotId: slotId(11, '16:00'), teacherId: 11 },
        { slotId: slotId(12, '16:10'), teacherId: 12 },
      ]),
    ).toEqual({
      items: [
        { slotId: slotId(11, '16:00'), studentId: ALICE, subjectId: 1 },
        { slotId: slotId(11, '16:00'), studentId: BEN, subjectId: 1 },
        { slotId: slotId(12, '16:10'), studentId: ALICE, subjectId: 2 },
      ],
      cancelBookingIds: [],
    });
  });

  it('splits the grid per section and shows a phone one column at a time', () => {
    const twoDays = [
      ...grid,
      { ...teacherGroup(TEACHERS.jones, { sectionId: 2 }), dateLabel: 'Fri 13 Mar 2026' },
    ];
    const columns = buildColumns(items, twoDays, [], children, names);
    const model = buildTimesGrid(columns, twoDays, [], {}, null);
    expect(model.sections.map((section) => [section.dateLabel, section.columns])).toEqual([
      ['Thu 12 Mar 2026', [0, 1, 2]],
      ['Fri 13 Mar 2026', [1]],
    ]);
    expect(columnView(model, JONES).map((day) => day.dateLabel)).toEqual([
      'Thu 12 Mar 2026',
      'Fri 13 Mar 2026',
    ]);
    expect(columnView(model, SMITH).map((day) => day.dateLabel)).toEqual(['Thu 12 Mar 2026']);
    expect(columnView(model, 'nope')).toEqual([]);
  });

  it('names a cell for screen readers and journeys', () => {
    const columns = buildColumns(items, grid, [], children, names);
    const model = buildTimesGrid(columns, grid, [], {}, null);
    const first = (key: string) => columnView(model, key)[0]?.cells[0];
    const smith = first(SMITH);
    const jones = first(JONES);
    expect(smith && cellLabel(smith, columns[0] as (typeof columns)[number], BOOKING_UI.cell)).toBe(
      '16:00 Mr Smith for Alice Park and Ben Park: free',
    );
    expect(jones && cellLabel(jones, columns[1] as (typeof columns)[number], BOOKING_UI.cell)).toBe(
      '16:00 Ms Jones for Alice Park: free',
    );
  });
});
