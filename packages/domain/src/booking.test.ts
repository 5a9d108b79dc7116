import { describe, expect, it } from 'vitest';
import { BOOKING_TEXT, scheduleProblem } from './booking';

const at = (time: string) => new Date(`2026-03-12T${time}:00Z`);
const appt = (slotId: number, start: string, end: string, studentId: number | null = 1) => ({
  slotId,
  startsAt: at(start),
  endsAt: at(end),
  studentId,
});

describe('scheduleProblem', () => {
  it('holds per child whoever booked: the other parent’s bookings count toward the limit and the gap', () => {
    const rules = { travelMinutes: 5, maxPerChild: 1 };
    const byOtherParent = [appt(7, '16:00', '16:10', 1)];
    expect(scheduleProblem([appt(8, '17:00', '17:10', 1)], rules, byOtherParent)).toBe(
      BOOKING_TEXT.childLimit(1),
    );
    expect(scheduleProblem([appt(8, '17:00', '17:10', 2)], rules, byOtherParent)).toBeNull();
    const gapOnly = { travelMinutes: 5, maxPerChild: null };
    expect(scheduleProblem([appt(8, '16:10', '16:20', 1)], gapOnly, byOtherParent)).toBe(
      BOOKING_TEXT.travelGap(5),
    );
    // The other parent's appointment with child 1 does not bind this parent's time with child 2.
    expect(scheduleProblem([appt(8, '16:10', '16:20', 2)], gapOnly, byOtherParent)).toBeNull();
  });

  it('accepts back-to-back appointments without a travel gap', () => {
    const rules = { travelMinutes: 0, maxPerChild: null };
    expect(scheduleProblem([appt(1, '16:00', '16:10'), appt(2, '16:10', '16:20')], rules)).toBeNull();
  });

  it('asks for the travel gap between appointments, in any order', () => {
    const rules = { travelMinutes: 5, maxPerChild: null };
    expect(scheduleProblem([appt(2, '16:10', '16:20'), appt(1, '16:00', '16:10')], rules)).toBe(
      BOOKING_TEXT.travelGap(5),
    );
    expect(scheduleProblem([appt(1, '16:00', '16:10'), appt(2, '16:15', '16:25')], rules)).toBeNull();
  });

  it('treats siblings sharing one slot as one appointment', () => {
    const rules = { travelMinutes: 10, maxPerChild: null };
    expect(scheduleProblem([appt(1, '16:00', '16:10', 1), appt(1, '16:00', '16:10', 2)], rules)).toBeNull();
  });

  it("keeps each child's limit, counting children apart", () => {
    const rules = { travelMinutes: 0, maxPerChild: 2 };
    const two = [appt(1, '16:00', '16:10', 1), appt(2, '16:10', '16:20', 1), appt(3, '16:20', '16:30', 2)];
    expect(scheduleProblem(two, rules)).toBeNull();
    expect(scheduleProblem([...two, appt(4, '16:30', '16:40', 1)], rules)).toBe(BOOKING_TEXT.childLimit(2));
    expect(
      scheduleProblem([...two, appt(4, '16:30', '16:40', 1)], { ...rules, maxPerChild: null }),
    ).toBeNull();
  });
});
