import {
  BOOKINGS_PAGE_SIZE,
  type EventBookingsPage,
  RECIPIENTS_PAGE_SIZE,
  type RecipientCounts,
  type RecipientsPage,
} from '@parley/domain/event-lists';
import type { BookingItem, EventDetail, RecipientItem, SlotGroup, SlotItem } from '@parley/domain/events';

// Test data for the event page's tests: a parent-teacher evening on Thu 12 Mar 2026 (Europe/London, so
// the instants read as local times) with two teachers, one booking and three recipients.

const at = (time: string) => `2026-03-12T${time}:00.000Z`;

export function slot(id: number, start: string, end: string, over: Partial<SlotItem> = {}): SlotItem {
  return {
    id,
    startsAt: at(start),
    endsAt: at(end),
    time: start,
    endTime: end,
    capacity: 1,
    bookedCount: 0,
    location: null,
    ...over,
  };
}

export function booking(over: Partial<BookingItem> = {}): BookingItem {
  return {
    id: 900,
    slotId: 101,
    sectionId: 1,
    startsAt: at('16:10'),
    endsAt: at('16:20'),
    timeLabel: 'Thu 12 Mar 2026, 16:10',
    teacherId: 31,
    teacherName: 'Mr Brown',
    parentId: 40,
    parentName: 'Ann Day',
    studentId: 50,
    studentName: 'Jo Day',
    subjectId: 2,
    subjectName: 'Maths',
    guests: 0,
    gownSize: null,
    status: 'booked',
    confirmed: false,
    createdAt: '2026-03-01T09:00:00.000Z',
    ...over,
  };
}

export function recipient(over: Partial<RecipientItem> & { id: number; name: string }): RecipientItem {
  return {
    email: `${over.name.split(' ')[0]?.toLowerCase()}@hill.test`,
    roles: ['parent'],
    booked: false,
    familyId: over.id,
    ...over,
  };
}

/** The evening's recipients as events/recipients has them. */
export const recipients = (): RecipientItem[] => [
  recipient({ id: 40, name: 'Ann Day', booked: true }),
  recipient({ id: 41, name: 'Ben Fox' }),
  recipient({ id: 60, name: 'Cal Lee', roles: ['student'] }),
];

/** events/recipients over a list, as the server answers it: searched, filtered, a page of 50. */
export function recipientsAnswer(list: readonly RecipientItem[], url: URL): RecipientsPage {
  const q = (url.searchParams.get('q') ?? '').trim().toLowerCase();
  const notBooked = url.searchParams.get('notBooked') === '1';
  const page = Number(url.searchParams.get('page') ?? 1);
  const matching = list.filter(
    (item) => (!notBooked || !item.booked) && `${item.name} ${item.email}`.toLowerCase().includes(q),
  );
  return {
    items: matching.slice((page - 1) * RECIPIENTS_PAGE_SIZE, page * RECIPIENTS_PAGE_SIZE),
    total: matching.length,
    page,
    pageSize: RECIPIENTS_PAGE_SIZE,
  };
}

/** users/{kind}?q&pageSize as the directory answers a picker: those whose name or email holds q. */
export function directoryAnswer(list: ReadonlyArray<{ id: number; name: string; email: string }>, url: URL) {
  const q = (url.searchParams.get('q') ?? '').trim().toLowerCase();
  const items = list.filter((item) => `${item.name} ${item.email}`.toLowerCase().includes(q));
  return { items, total: items.length, page: 1, pageSize: Number(url.searchParams.get('pageSize') ?? 10) };
}

/** events/recipient-counts over a list. */
export const recipientCountsAnswer = (list: readonly RecipientItem[]): RecipientCounts => ({
  people: list.length,
  bookedPeople: list.filter((item) => item.booked).length,
  notBookedFamilies: new Set(list.filter((item) => !item.booked).map((item) => item.familyId)).size,
});

/** events/bookings over a list, as the server answers it: live (or all), searched, a page of 50. */
export function bookingsAnswer(list: readonly BookingItem[], url: URL): EventBookingsPage {
  const q = (url.searchParams.get('q') ?? '').trim().toLowerCase();
  const cancelled = url.searchParams.get('cancelled') === '1';
  const page = Number(url.searchParams.get('page') ?? 1);
  const matching = list.filter(
    (item) =>
      (cancelled || item.status === 'booked') &&
      [item.teacherName, item.parentName, item.studentName].join(' ').toLowerCase().includes(q),
  );
  return {
    items: matching.slice((page - 1) * BOOKINGS_PAGE_SIZE, page * BOOKINGS_PAGE_SIZE),
    total: matching.length,
    page,
    pageSize: BOOKINGS_PAGE_SIZE,
    cancelledCount: list.filter((item) => item.status === 'cancelled').length,
  };
}

/** The graduation's one booking: two guests and a gown. */
export const graduationBookings = (): BookingItem[] => [
  booking({
    id: 910,
    slotId: 301,
    sectionId: 2,
    teacherId: null,
    teacherName: null,
    subjectId: null,
    subjectName: null,
    guests: 2,
    gownSize: 'M',
    timeLabel: 'Thu 12 Mar 2026, 20:00',
  }),
];

export const ptSlots = (): SlotGroup[] => [
  {
    sectionId: 1,
    teacherId: 31,
    teacherName: 'Mr Brown',
    location: 'Room 4',
    slots: [
      slot(100, '16:00', '16:10'),
      slot(101, '16:10', '16:20', { bookedCount: 1 }),
      slot(102, '16:20', '16:30', { bookedCount: 1 }),
      slot(103, '16:30', '16:40'),
    ],
  },
  {
    sectionId: 1,
    teacherId: 32,
    teacherName: 'Ms Green',
    location: 'Room 5',
    slots: [slot(200, '16:00', '16:10'), slot(201, '16:10', '16:20')],
  },
];

/** The graduation's one column: two slots of 200 places, one with a place left. */
export const graduationSlots = (): SlotGroup[] => [
  {
    sectionId: 2,
    teacherId: null,
    teacherName: null,
    location: 'Hall',
    slots: [
      slot(300, '18:00', '20:00', { capacity: 200, bookedCount: 199 }),
      slot(301, '20:00', '22:00', { capacity: 200, bookedCount: 200 }),
    ],
  },
];

/** events/slots over an event's columns, as the server answers it: of the section and teachers asked. */
export function slotsAnswer(groups: readonly SlotGroup[], url: URL): { items: SlotGroup[] } {
  const sectionId = url.searchParams.get('sectionId');
  const teacherIds = url.searchParams.get('teacherIds');
  const teachers = teacherIds === null ? null : new Set(teacherIds.split(',').map(Number));
  return {
    items: groups.filter(
      (group) =>
        (sectionId === null || group.sectionId === Number(sectionId)) &&
        (teachers === null || (group.teacherId !== null && teachers.has(group.teacherId))),
    ),
  };
}

export function eventDetail(over: Partial<EventDetail> = {}): EventDetail {
  return {
    id: 5,
    name: 'Spring evening',
    eventTypeId: 1,
    eventTypeName: 'Parent teacher',
    eventTypeGroupInt: 1,
    status: 1,
    scanOpensHoursBefore: 24,
    scanClosesHoursAfter: 24,
    statusLabel: { text: 'Enabled', color: 'success' },
    disabledNotice: null,
    bookingPageMessage: null,
    subscriberName: 'Hill School',
    code: 'abc123def4',
    bookingPath: '/book/ptevent/abc123def4',
    bookingUrl: 'http://localhost/book/ptevent/abc123def4',
    timeZone: 'Europe/London',
    opensAt: null,
    closesAt: null,
    opensAtLocal: null,
    closesAtLocal: null,
    opensAtLabel: null,
    closesAtLabel: null,
    options: {
      slotMinutes: 10,
      breakMinutes: 0,
      travelMinutes: 0,
      usersPerSlot: 1,
      guestAllowance: 0,
      gownSizes: [],
      maxAppointmentsPerChild: null,
    },
    bookingNotifications: false,
    dayBeforeReminder: true,
    meetingMode: 'inPerson',
    guestCountOptions: [0],
    gownOptions: [],
    sections: [
      {
        id: 1,
        date: '2026-03-12',
        start: '16:00',
        end: '16:40',
        startsAt: at('16:00'),
        endsAt: at('16:40'),
        location: null,
        label: 'Thu 12 Mar 2026, 16:00 – 16:40',
        teachers: [
          { teacherId: 31, name: 'Mr Brown', location: 'Room 4', unavailable: [], freeSlots: 2 },
          { teacherId: 32, name: 'Ms Green', location: 'Room 5', unavailable: [], freeSlots: 2 },
        ],
        slotCount: 6,
        bookedCount: 2,
      },
    ],
    sectionTimeLabels: ['Thu 12 Mar 2026, 16:00 – 16:40'],
    recipientCount: 3,
    canScanUserIds: [],
    scanners: [],
    bookingCountForEvent: 1,
    createdAt: '2026-03-01T09:00:00.000Z',
    createdAtHuman: '3 days ago',
    ...over,
  };
}

/** A ticketed graduation (group 3): one section, one slot of 200 places, guests and gowns. */
export function graduation(over: Partial<EventDetail> = {}): EventDetail {
  return eventDetail({
    id: 6,
    name: 'Graduation',
    eventTypeId: 3,
    eventTypeName: 'Graduation',
    eventTypeGroupInt: 3,
    bookingPath: '/book/event/grad000001',
    guestCountOptions: [0, 1, 2],
    gownOptions: [
      { id: 'S', name: 'S' },
      { id: 'M', name: 'M' },
    ],
    sections: [
      {
        id: 2,
        date: '2026-03-12',
        start: '18:00',
        end: '22:00',
        startsAt: at('18:00'),
        endsAt: at('22:00'),
        location: 'Hall',
        label: 'Thu 12 Mar 2026, 18:00 – 22:00',
        teachers: [],
        slotCount: 2,
        bookedCount: 399,
      },
    ],
    sectionTimeLabels: ['Thu 12 Mar 2026, 18:00 – 22:00'],
    ...over,
  });
}
