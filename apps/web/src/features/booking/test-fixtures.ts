import type {
  BookableGroup,
  BookingEvent,
  BookingPage,
  BookingViewer,
  MyBooking,
} from '@parley/domain/booking';

// A parent-teacher evening for the booking tests: Hill School, Thursday 12 March 2026 16:00–16:40 (London,
// GMT in March, so the instants read the same as the labels), 10-minute slots.

export const TEACHERS = {
  smith: { teacherId: 11, name: 'Mr Smith', subjects: [{ id: 1, name: 'Maths' }], location: 'Room 1' },
  jones: { teacherId: 12, name: 'Ms Jones', subjects: [{ id: 2, name: 'English' }], location: 'Room 2' },
  brown: { teacherId: 13, name: 'Dr Brown', subjects: [{ id: 3, name: 'Science' }], location: 'Lab' },
  green: { teacherId: 14, name: 'Mrs Green', subjects: [{ id: 4, name: 'History' }], location: null },
} as const;

export const ALICE = 21;
export const BEN = 22;

const TIMES = ['16:00', '16:10', '16:20', '16:30'] as const;
const END = { '16:00': '16:10', '16:10': '16:20', '16:20': '16:30', '16:30': '16:40' } as const;
const instant = (time: string) => `2026-03-12T${time}:00.000Z`;

/** Slot ids: teacherId × 100 + index (1100, 1101, …). */
export const slotId = (teacherId: number, time: (typeof TIMES)[number]) =>
  teacherId * 100 + TIMES.indexOf(time);

export function teacherGroup(
  teacher: (typeof TEACHERS)[keyof typeof TEACHERS],
  overrides: { free?: Partial<Record<(typeof TIMES)[number], number>>; sectionId?: number } = {},
): BookableGroup {
  return {
    sectionId: overrides.sectionId ?? 1,
    dateLabel: 'Thu 12 Mar 2026',
    teacherId: teacher.teacherId,
    teacherName: teacher.name,
    subjects: [...teacher.subjects],
    location: teacher.location,
    slots: TIMES.map((time) => ({
      id: slotId(teacher.teacherId, time),
      startsAt: instant(time),
      endsAt: instant(END[time]),
      time,
      endTime: END[time],
      free: overrides.free?.[time] ?? 1,
      capacity: 1,
      myBookingId: null,
      location: teacher.location,
    })),
  };
}

export function booking(
  id: number,
  teacher: (typeof TEACHERS)[keyof typeof TEACHERS],
  studentId: number,
  time: (typeof TIMES)[number],
  overrides: Partial<MyBooking> = {},
): MyBooking {
  return {
    id,
    slotId: slotId(teacher.teacherId, time),
    sectionId: 1,
    startsAt: instant(time),
    endsAt: instant(END[time]),
    timeLabel: `Thu 12 Mar 2026, ${time} – ${END[time]}`,
    time,
    endTime: END[time],
    teacherId: teacher.teacherId,
    teacherName: teacher.name,
    videoUrl: null,
    studentId,
    studentName: studentId === ALICE ? 'Alice Park' : 'Ben Park',
    parentId: 31,
    parentName: 'Pat Park',
    subjectId: teacher.subjects[0].id,
    subjectName: teacher.subjects[0].name,
    location: teacher.location,
    guests: 0,
    gownSize: null,
    status: 'booked',
    confirmed: false,
    ...overrides,
  };
}

export const parentViewer: BookingViewer = {
  userId: 31,
  name: 'Pat Park',
  email: 'pat@park.test',
  bookAs: 'parent',
  viaLink: false,
};

export function ptEvent(overrides: Partial<BookingEvent> = {}): BookingEvent {
  return {
    id: 5,
    name: 'Spring parents evening',
    code: 'SPRING',
    eventTypeName: 'Parent teacher',
    eventTypeGroupInt: 1,
    status: 1,
    statusLabel: { text: 'Enabled', color: 'success' },
    subscriberName: 'Hill School',
    bookingPageMessage: 'Please arrive five minutes early.',
    timeZone: 'Europe/London',
    opensAt: null,
    closesAt: '2026-03-11T18:00:00.000Z',
    opensAtLabel: null,
    closesAtLabel: 'Wed 11 Mar 2026, 18:00',
    isOpen: true,
    closedReason: null,
    options: {
      slotMinutes: 10,
      breakMinutes: 0,
      travelMinutes: 0,
      usersPerSlot: 1,
      guestAllowance: 0,
      gownSizes: [],
      maxAppointmentsPerChild: null,
    },
    guestCountOptions: [],
    gownOptions: [],
    sections: [
      {
        id: 1,
        date: '2026-03-12',
        start: '16:00',
        end: '16:40',
        startsAt: instant('16:00'),
        endsAt: instant('16:40'),
        location: 'Main hall',
        label: 'Thu 12 Mar 2026, 16:00 – 16:40',
      },
    ],
    sectionTimeLabels: ['Thu 12 Mar 2026, 16:00 – 16:40'],
    bookingPath: '/book/ptevent/SPRING',
    meetingMode: 'inPerson',
    ...overrides,
  };
}

/** Pat Park's page: Alice (Mr Smith, Ms Jones; Mr Grey not at the event) and Ben (Mr Smith, Dr Brown). */
export function ptPage(overrides: Partial<BookingPage> = {}): BookingPage {
  return {
    event: ptEvent(),
    studentId: null,
    viewer: parentViewer,
    children: [
      {
        id: ALICE,
        name: 'Alice Park',
        teachers: [
          { teacherId: 11, teacherName: 'Mr Smith', subjectId: 1, subjectName: 'Maths', inEvent: true },
          { teacherId: 12, teacherName: 'Ms Jones', subjectId: 2, subjectName: 'English', inEvent: true },
          { teacherId: 15, teacherName: 'Mr Grey', subjectId: 5, subjectName: 'French', inEvent: false },
        ],
      },
      {
        id: BEN,
        name: 'Ben Park',
        teachers: [
          { teacherId: 11, teacherName: 'Mr Smith', subjectId: 1, subjectName: 'Maths', inEvent: true },
          { teacherId: 13, teacherName: 'Dr Brown', subjectId: 3, subjectName: 'Science', inEvent: true },
        ],
      },
    ],
    teachers: Object.values(TEACHERS).map((teacher) => ({ ...teacher, subjects: [...teacher.subjects] })),
    grid: [],
    bookings: [],
    lateNotes: [],
    ...overrides,
  };
}
