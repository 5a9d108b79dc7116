import { describe, expect, it } from 'vitest';
import { type ReminderItem, reminderDay, reminderLine, reminderPush } from './day-before-reminder';

const at = (iso: string) => new Date(iso);
const item = (over: Partial<ReminderItem> = {}): ReminderItem => ({
  startsAt: at('2027-03-28T15:10:00Z'),
  endsAt: at('2027-03-28T15:20:00Z'),
  eventName: 'Spring evening',
  asTeacher: false,
  teacherName: 'Mr T Smith',
  studentName: 'Sam Rowe',
  location: 'Main hall',
  guests: 0,
  ...over,
});

describe('the day-before reminder', () => {
  it('says each appointment in the school zone, as the family and as the teacher read it', () => {
    // 28 March 2027 is the first day of British Summer Time: 15:10 UTC is 16:10 in London.
    expect(reminderLine(item(), 'Europe/London')).toBe(
      '16:10–16:20 Spring evening: Mr T Smith, for Sam Rowe, Main hall',
    );
    expect(reminderLine(item({ asTeacher: true }), 'Europe/London')).toBe(
      '16:10–16:20 Spring evening: with the family of Sam Rowe, Main hall',
    );
    expect(
      reminderLine(item({ teacherName: null, studentName: null, location: null, guests: 2 }), 'UTC'),
    ).toBe('15:10–15:20 Spring evening: 3 places');
    expect(reminderLine(item({ teacherName: null, studentName: null, location: null }), 'UTC')).toBe(
      '15:10–15:20 Spring evening',
    );
  });

  it('names the day and, in the push, the first appointment and how many more', () => {
    const items = [
      item(),
      item({ startsAt: at('2027-03-28T15:30:00Z'), endsAt: at('2027-03-28T15:40:00Z') }),
    ];
    expect(reminderDay(items, 'Europe/London')).toBe('Sun 28 Mar 2027');
    expect(reminderPush(items, 'Europe/London')).toEqual({
      title: 'Tomorrow: 2 appointments',
      body: '16:10–16:20 Spring evening: Mr T Smith, for Sam Rowe, Main hall (and 1 more)',
    });
    expect(reminderPush([item()], 'Europe/London').title).toBe('Tomorrow: Spring evening');
  });
});
