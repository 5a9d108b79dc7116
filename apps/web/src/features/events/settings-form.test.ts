import { describe, expect, it } from 'vitest';
import { CLOCK_ERROR } from '../../components/clock-time';
import { EVENTS_TEXT } from '../../lib/ui-text';
import { eventDetail } from './event-fixtures';
import { hasMeetingMode, settingsBody, settingsSchema, settingsValues } from './settings-form';

// The booking window is a date and a 24-hour time at each end (decision 020: one clock style, whatever
// the device's locale), sent as the server's local date-time.

const windowed = eventDetail({ opensAtLocal: '2026-03-01T08:00', closesAtLocal: '2026-03-11T18:30' });

function issues(values: ReturnType<typeof settingsValues>) {
  const result = settingsSchema.safeParse(values);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('event settings: the booking window', () => {
  it('splits the saved window into dates and 24-hour times, and sends nothing when unchanged', () => {
    const values = settingsValues(windowed);
    expect(values).toMatchObject({
      opensDate: '2026-03-01',
      opensTime: '08:00',
      closesDate: '2026-03-11',
      closesTime: '18:30',
    });
    expect(settingsBody(values, windowed)).toEqual({});
    expect(settingsValues(eventDetail())).toMatchObject({ opensDate: '', opensTime: '', closesTime: '' });
  });

  it('sends a changed end as a local date-time, and an emptied one as no limit', () => {
    const values = { ...settingsValues(windowed), closesTime: '1945', opensDate: '', opensTime: '' };
    expect(issues(values)).toEqual({});
    expect(settingsBody(values, windowed)).toEqual({ opensAt: null, closesAt: '2026-03-11T19:45' });
  });

  it('asks for the 24-hour clock, for both parts of an end, and for opening before closing', () => {
    const base = settingsValues(eventDetail());
    expect(issues({ ...base, opensDate: '2026-03-01', opensTime: '4pm' })).toEqual({
      opensTime: CLOCK_ERROR,
    });
    expect(issues({ ...base, opensDate: '2026-03-01' })).toEqual({
      opensTime: EVENTS_TEXT.windowTimeMissing,
    });
    expect(issues({ ...base, closesTime: '18:00' })).toEqual({ closesDate: EVENTS_TEXT.windowDateMissing });
    expect(
      issues({
        ...base,
        opensDate: '2026-03-02',
        opensTime: '09:00',
        closesDate: '2026-03-02',
        closesTime: '08:59',
      }),
    ).toEqual({ closesDate: 'Bookings must open before they close' });
  });
});

describe('event settings: the door’s window (issue 35)', () => {
  const concert = eventDetail({ eventTypeGroupInt: 2, scanOpensHoursBefore: 24, scanClosesHoursAfter: 24 });

  it('a ticketed event shows its window in hours and sends a changed end', () => {
    const values = settingsValues(concert);
    expect(values).toMatchObject({ scanOpensHoursBefore: '24', scanClosesHoursAfter: '24' });
    expect(settingsBody({ ...values, scanOpensHoursBefore: '2' }, concert)).toEqual({
      scanOpensHoursBefore: 2,
    });
    // A parent-teacher evening has no door.
    expect(
      settingsBody({ ...settingsValues(eventDetail()), scanOpensHoursBefore: '2' }, eventDetail()),
    ).toEqual({});
  });

  it('asks for whole hours from 0 to 1440', () => {
    const base = settingsValues(concert);
    expect(issues({ ...base, scanOpensHoursBefore: '1441', scanClosesHoursAfter: 'soon' })).toEqual({
      scanOpensHoursBefore: EVENTS_TEXT.atMost(1440),
      scanClosesHoursAfter: EVENTS_TEXT.wholeNumber,
    });
  });
});

describe('event settings: how the appointments are held (issue 41)', () => {
  it('sends a change to video, and offers the choice only to events with appointments', () => {
    const evening = eventDetail();
    const values = { ...settingsValues(evening), meetingMode: 'video' as const };
    expect(settingsValues(evening).meetingMode).toBe('inPerson');
    expect(settingsBody(values, evening)).toEqual({ meetingMode: 'video' });
    expect(settingsBody(values, eventDetail({ meetingMode: 'video' }))).toEqual({});
    expect([1, 2, 3, 4].map(hasMeetingMode)).toEqual([true, false, false, true]);
    // A concert has no appointments: its (unchanged) mode is never sent.
    const concert = eventDetail({ eventTypeGroupInt: 2 });
    expect(settingsBody({ ...settingsValues(concert), meetingMode: 'video' }, concert)).toEqual({});
  });
});
