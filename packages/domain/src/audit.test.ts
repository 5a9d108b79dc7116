import { describe, expect, it } from 'vitest';
import { auditSummary, changesText, isAuditable } from './audit';

describe('isAuditable: changes by staff to someone else’s data', () => {
  const admin = { userId: 1, roles: ['admin'] as const };
  const teacher = { userId: 2, roles: ['teacher'] as const };
  const parent = { userId: 3, roles: ['parent'] as const };

  it('records an admin or a teacher acting on another person', () => {
    expect(isAuditable(admin, { subjectType: 'booking', people: [3, 4] })).toBe(true);
    expect(isAuditable(teacher, { subjectType: 'ticket', people: [4] })).toBe(true);
  });

  it('never records a family acting, even on someone else (a parent is not staff)', () => {
    expect(isAuditable(parent, { subjectType: 'booking', people: [3, 4] })).toBe(false);
    expect(isAuditable({ userId: 3, roles: [] }, { subjectType: 'event', people: [] })).toBe(false);
  });

  it('does not record staff acting on their own data only', () => {
    expect(isAuditable(admin, { subjectType: 'person', people: [1] })).toBe(false);
    expect(isAuditable(admin, { subjectType: 'booking', people: [] })).toBe(false);
  });

  it('records every change to an event: the school’s data', () => {
    expect(isAuditable(admin, { subjectType: 'event', people: [] })).toBe(true);
  });
});

describe('auditSummary: one line per entry', () => {
  it('a moved booking reads old → new', () => {
    expect(
      auditSummary({
        action: 'booking.moved',
        subject: { type: 'booking', label: 'Jane Doe (Tom Doe)' },
        detail: { from: 'Thu 12 Mar 2026, 16:00 with Ann Lee', to: 'Thu 12 Mar 2026, 16:30 with Ann Lee' },
      }),
    ).toBe(
      'Moved the booking of Jane Doe (Tom Doe): Thu 12 Mar 2026, 16:00 with Ann Lee → Thu 12 Mar 2026, 16:30 with Ann Lee',
    );
  });

  it('an edit lists the fields changed, a person’s status as Active/Inactive and an event’s as Enabled/Disabled', () => {
    expect(
      auditSummary({
        action: 'person.updated',
        subject: { type: 'person', label: 'Ann Lee (ann@example.org)' },
        detail: { changes: { firstName: { from: 'Ann', to: 'Anne' }, status: { from: 1, to: 0 } } },
      }),
    ).toBe('Edited Ann Lee (ann@example.org): first name Ann → Anne; status Active → Inactive');
    expect(changesText({ status: { from: 0, to: 1 } }, 'event')).toBe('status Disabled → Enabled');
    expect(changesText({ studentIds: { from: [4, 5], to: [] }, title: { to: 'Dr' } }, 'person')).toBe(
      'children 4, 5 → (none); title now Dr',
    );
  });

  it('enabling says so once, without repeating the status', () => {
    expect(
      auditSummary({
        action: 'event.enabled',
        subject: { type: 'event', label: 'Year 9' },
        detail: { changes: { status: { from: 0, to: 1 }, name: { from: 'Y9', to: 'Year 9' } } },
      }),
    ).toBe('Enabled Year 9: name Y9 → Year 9');
  });

  it('a message counts its recipients; an invitation names the person', () => {
    expect(
      auditSummary({
        action: 'message.sent',
        subject: { type: 'event', label: 'Year 9' },
        detail: { message: 'reminder', recipients: 1 },
      }),
    ).toBe('Sent a reminder for Year 9 to 1 recipient');
    expect(
      auditSummary({
        action: 'message.sent',
        subject: { type: 'person', label: 'Ann Lee (ann@example.org)' },
        detail: { message: 'invitation', role: 'teacher' },
      }),
    ).toBe('Sent an invitation to sign up to Ann Lee (ann@example.org)');
  });

  it('a removal says what was cancelled with it and whether the account stays', () => {
    expect(
      auditSummary({
        action: 'person.deleted',
        subject: { type: 'person', label: 'Ann Lee (ann@example.org)' },
        detail: { role: 'teacher', accountKept: true, bookingsCancelled: 2 },
      }),
    ).toBe(
      "Removed Ann Lee (ann@example.org) (account kept, deactivated, for the school's records) (2 bookings cancelled)",
    );
    expect(
      auditSummary({
        action: 'event.deleted',
        subject: { type: 'event', label: 'Year 9' },
        detail: { bookingsCancelled: 0 },
      }),
    ).toBe('Deleted Year 9');
  });
});
