import type { MyBooking } from '@parley/domain/booking';
import { updateSlotByAdminRequest } from '@parley/domain/booking';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_BOOKING_TEXT,
  bookingSummary,
  confirmedIdsOf,
  emptyFamilyBooking,
  type FamilyBookingValues,
  familyBookingRequest,
  familyOptions,
  freeSlots,
  isConfirmed,
  moveRequest,
  moveTargets,
  sharedDate,
  subjectOptions,
  teacherOptions,
} from './admin-booking';
import {
  booking,
  eventDetail,
  graduation,
  graduationBookings,
  graduationSlots,
  ptSlots,
  recipients,
  slot,
} from './event-fixtures';

/** An event with the grid's columns a dialog has asked for (events/slots). */
const withSlots = (event = eventDetail(), slots = ptSlots()) => ({ ...event, slots });

const studies = [
  { subjectId: 2, subjectName: 'Maths', teacherId: 32, teacherName: 'Ms Green' },
  { subjectId: 3, subjectName: 'Art', teacherId: 99, teacherName: 'Mr Gone' },
];

describe('moveTargets: where a booking may move', () => {
  it('parent-teacher: only the same teacher’s free slots, the booked and the current one left out', () => {
    const event = withSlots();
    const targets = moveTargets(event, booking({ slotId: 101, teacherId: 31 }));
    expect(targets.map((target) => target.slotId)).toEqual([100, 103]);
    // All on one date: the date is shown once beside the list, not in every choice.
    expect(targets[0]?.label).toBe('16:00–16:10');
    expect(sharedDate(targets)).toBe('Thu 12 Mar 2026');
    expect(targets.every((target) => target.teacherId === 31)).toBe(true);
  });

  it('parent-teacher: the same teacher on another date is offered too, in time order', () => {
    const event = withSlots();
    event.slots.push({
      sectionId: 9,
      teacherId: 31,
      teacherName: 'Mr Brown',
      location: null,
      slots: [slot(150, '09:00', '09:10', { startsAt: '2026-03-13T09:00:00.000Z' })],
    });
    const targets = moveTargets(event, booking());
    expect(targets.map((target) => target.slotId)).toEqual([100, 103, 150]);
    expect(targets.map((target) => target.label)).toEqual([
      'Thu 12 Mar 2026 · 16:00–16:10',
      'Thu 12 Mar 2026 · 16:30–16:40',
      'Fri 13 Mar 2026 · 09:00–09:10',
    ]);
    expect(sharedDate(targets)).toBeNull();
  });

  it('other kinds: any slot with a place left, across sections, with the places shown', () => {
    const event = withSlots(graduation(), graduationSlots());
    const targets = moveTargets(event, graduationBookings()[0] ?? booking());
    expect(targets.map((target) => target.slotId)).toEqual([300]);
    expect(targets[0]?.label).toBe('18:00–20:00 · 1 place left');
  });

  it('offers nothing for a cancelled booking or a parent-teacher booking without a teacher', () => {
    const event = withSlots();
    expect(moveTargets(event, booking({ status: 'cancelled' }))).toEqual([]);
    expect(moveTargets(event, booking({ teacherId: null }))).toEqual([]);
  });
});

describe('moveRequest', () => {
  it('keeps the child, subject, guests and gown, and passes the domain contract', () => {
    const body = moveRequest(booking({ guests: 1, gownSize: 'M' }), 103);
    expect(body).toEqual({
      bookingId: 900,
      slotId: 103,
      studentId: 50,
      subjectId: 2,
      guests: 1,
      gownSize: 'M',
    });
    expect(updateSlotByAdminRequest.safeParse(body).success).toBe(true);
  });
});

describe('confirmed bookings', () => {
  const mine = (id: number, confirmed: boolean) => ({ id, confirmed }) as MyBooking;

  it('are those confirmed on this page, or flagged by the view', () => {
    const known = new Set([900]);
    expect(isConfirmed(booking(), known)).toBe(true);
    expect(isConfirmed(booking({ id: 901 }), known)).toBe(false);
    expect(
      isConfirmed({ ...booking({ id: 901 }), confirmed: true } as ReturnType<typeof booking>, known),
    ).toBe(true);
  });

  it('take the confirmed one and the family’s other confirmed bookings from the answer', () => {
    expect(confirmedIdsOf({ bookings: [mine(900, true), mine(901, false), mine(902, true)] }, 900)).toEqual([
      900, 902,
    ]);
    expect(confirmedIdsOf({ bookings: [] }, 7)).toEqual([7]);
  });
});

describe('familyOptions: who the admin can book for', () => {
  const all = [
    { id: 41, name: 'Ben Fox', email: 'ben@hill.test' },
    { id: 42, name: 'Ada Zed', email: 'ada@hill.test' },
  ];
  const students = [{ id: 61, name: 'Dee Ray', email: 'dee@hill.test' }];

  it('parent-teacher: invited parents first, then the other parents; no students', () => {
    const options = familyOptions(1, recipients(), all, students);
    expect(options.map((option) => [option.group, option.name, option.notBooked])).toEqual([
      ['Invited parents', 'Ann Day', false],
      ['Invited parents', 'Ben Fox', true],
      ['Other parents', 'Ada Zed', false],
    ]);
  });

  it('other kinds: students too, each person once per role', () => {
    const options = familyOptions(3, recipients(), all, [
      ...students,
      { id: 60, name: 'Cal Lee', email: 'cal@hill.test' },
    ]);
    expect(options.map((option) => option.key)).toEqual([
      'parent:40',
      'parent:41',
      'student:60',
      'parent:42',
      'student:61',
    ]);
  });
});

describe('teacher and subject choices', () => {
  it('lists teachers with a free slot, the child’s own first with their subject', () => {
    const event = eventDetail();
    expect(teacherOptions(event).map((teacher) => teacher.name)).toEqual(['Mr Brown', 'Ms Green']);
    const options = teacherOptions(event, studies);
    expect(options.map((teacher) => [teacher.name, teacher.hint, teacher.free])).toEqual([
      ['Ms Green', 'Maths', 2],
      ['Mr Brown', null, 2],
    ]);
  });

  it('leaves out a teacher whose slots are all booked', () => {
    const event = eventDetail();
    const green = event.sections[0]?.teachers[1];
    if (green) green.freeSlots = 0;
    expect(teacherOptions(event).map((teacher) => teacher.teacherId)).toEqual([31]);
  });

  it('offers the child’s subjects with that teacher, else all the child’s subjects', () => {
    expect(subjectOptions(studies, 32)).toEqual([{ id: 2, name: 'Maths' }]);
    expect(subjectOptions(studies, 31)).toEqual([
      { id: 3, name: 'Art' },
      { id: 2, name: 'Maths' },
    ]);
    expect(subjectOptions(undefined, 31)).toEqual([]);
  });

  it('freeSlots of one teacher', () => {
    expect(freeSlots(withSlots(), { teacherId: 32 }).map((item) => item.slotId)).toEqual([200, 201]);
  });
});

describe('familyBookingRequest', () => {
  const [parentOption, , studentOption] = familyOptions(3, recipients());
  const values = (over: Partial<FamilyBookingValues>): FamilyBookingValues => ({
    ...emptyFamilyBooking(),
    ...over,
  });

  it('parent-teacher: needs a parent, a child, a teacher and a time', () => {
    const result = familyBookingRequest(emptyFamilyBooking(), eventDetail());
    expect(result).toEqual({
      ok: false,
      errors: { person: 'Choose a parent', teacherId: 'Choose a teacher', slotId: 'Choose a time' },
    });
    const noChild = familyBookingRequest(
      values({ person: parentOption ?? null, teacherId: '31', slotId: '100' }),
      eventDetail(),
    );
    expect(noChild).toEqual({ ok: false, errors: { studentId: 'Choose a child' } });
  });

  it('parent-teacher: parent, child, slot and optional subject; no guests or gown', () => {
    const body = { slotId: 100, parentId: 40, studentId: 50, subjectId: 2 };
    const chosen = values({ person: parentOption ?? null, studentId: '50', teacherId: '31', slotId: '100' });
    expect(familyBookingRequest({ ...chosen, subjectId: '2' }, eventDetail())).toEqual({ ok: true, body });
    const without = familyBookingRequest(chosen, eventDetail());
    expect(without).toEqual({ ok: true, body: { ...body, subjectId: null } });
    if (without.ok) expect(updateSlotByAdminRequest.safeParse(without.body).success).toBe(true);
  });

  it('parent-teacher: a student cannot be the one booking', () => {
    const result = familyBookingRequest(
      values({ person: studentOption ?? null, teacherId: '31', slotId: '100' }),
      eventDetail(),
    );
    expect(result).toEqual({ ok: false, errors: { person: 'Choose a parent' } });
  });

  it('graduation: a student books with guests and a gown; a parent’s child is optional', () => {
    const event = graduation();
    expect(
      familyBookingRequest(
        values({ person: studentOption ?? null, slotId: '300', guests: '2', gownSize: 'M' }),
        event,
      ),
    ).toEqual({ ok: true, body: { slotId: 300, studentId: 60, guests: 2, gownSize: 'M' } });
    expect(familyBookingRequest(values({ person: parentOption ?? null, slotId: '300' }), event)).toEqual({
      ok: true,
      body: { slotId: 300, parentId: 40, studentId: null, guests: 0, gownSize: null },
    });
    expect(familyBookingRequest(values({ person: null }), event)).toEqual({
      ok: false,
      errors: { person: 'Choose a parent or student', slotId: 'Choose a time' },
    });
  });

  it('booking events: no guests, no gown, no subject', () => {
    const event = graduation({ eventTypeGroupInt: 4 });
    expect(
      familyBookingRequest(values({ person: studentOption ?? null, slotId: '300', guests: '2' }), event),
    ).toEqual({
      ok: true,
      body: { slotId: 300, studentId: 60 },
    });
  });
});

describe('recipients: not booked yet', () => {
  it('names the families, not the people, in the filter', () => {
    expect(ADMIN_BOOKING_TEXT.notBookedFilter(2)).toBe('Not booked yet (2 families)');
    expect(ADMIN_BOOKING_TEXT.notBookedFilter(1)).toBe('Not booked yet (1 family)');
  });
});

describe('bookingSummary', () => {
  it('names the family, the time and the teacher', () => {
    expect(bookingSummary(booking())).toBe('Ann Day · Jo Day, Thu 12 Mar 2026, 16:10 with Mr Brown');
    expect(bookingSummary(booking({ teacherName: null, parentName: null }))).toBe(
      'Jo Day, Thu 12 Mar 2026, 16:10',
    );
  });
});
