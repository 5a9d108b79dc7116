import type { BookableGroup, BookingItemInput, MyBooking } from '@parley/domain/booking';

// Booking events (group 4: a slot of a section) and ticketed / graduation events (groups 2 and 3: places,
// with guests and, for a graduation, a gown size). One booking per person booked for.

export type PlaceSlot = {
  id: number;
  time: string;
  endTime: string;
  free: number;
  capacity: number;
  location: string | null;
  /** Free places, or the viewer's own booking being changed. */
  selectable: boolean;
  mine: boolean;
};

export type PlaceSection = {
  sectionId: number;
  dateLabel: string;
  location: string | null;
  slots: PlaceSlot[];
};

/** The grid's slots per section; a full slot stays listed (not selectable) unless it is the one being changed. */
export function placeSections(grid: readonly BookableGroup[], current: MyBooking | null): PlaceSection[] {
  const sections: PlaceSection[] = [];
  for (const group of grid) {
    let section = sections.find((entry) => entry.sectionId === group.sectionId);
    if (!section) {
      section = {
        sectionId: group.sectionId,
        dateLabel: group.dateLabel,
        location: group.location,
        slots: [],
      };
      sections.push(section);
    }
    for (const slot of group.slots) {
      const mine = current?.slotId === slot.id;
      section.slots.push({
        id: slot.id,
        time: slot.time,
        endTime: slot.endTime,
        free: slot.free,
        capacity: slot.capacity,
        location: slot.location ?? group.location,
        selectable: slot.free > 0 || mine,
        mine,
      });
    }
  }
  return sections;
}

/** The live booking of the person booked for (a student: any of theirs). */
export function currentBooking(bookings: readonly MyBooking[], studentId: number | null): MyBooking | null {
  return (
    bookings.find(
      (booking) => booking.status === 'booked' && (studentId === null || booking.studentId === studentId),
    ) ?? null
  );
}

export type PlaceForm = { slotId: number | null; guests: number; gownSize: string | null };

/** The form for a new booking (the only free slot preselected) or for changing `current`. */
export function initialPlaceForm(
  current: MyBooking | null,
  guestOptions: readonly number[],
  sections: readonly PlaceSection[] = [],
): PlaceForm {
  if (current) return { slotId: current.slotId, guests: current.guests, gownSize: current.gownSize };
  const open = sections.flatMap((section) => section.slots).filter((slot) => slot.selectable);
  return {
    slotId: open.length === 1 ? (open[0]?.id ?? null) : null,
    guests: guestOptions[0] ?? 0,
    gownSize: null,
  };
}

/** A form that is complete: a slot, and a gown size when the event asks for one. */
export function formReady(form: PlaceForm, needsGown: boolean): boolean {
  return form.slotId !== null && (!needsGown || Boolean(form.gownSize));
}

export type PlaceAction =
  | { kind: 'none' }
  | { kind: 'gown'; bookingId: number; gownSize: string }
  | { kind: 'book'; items: BookingItemInput[]; cancelBookingIds: number[] };

/**
 * What saving the form does: nothing when unchanged; only the gown size (update-gown-size) when that is
 * all that changed; otherwise one update-slot-for-booking that books the new place and, for a change,
 * cancels the old one in the same transaction.
 */
export function placeAction(
  form: PlaceForm,
  current: MyBooking | null,
  studentId: number | null,
): PlaceAction {
  if (form.slotId === null) return { kind: 'none' };
  if (current && current.slotId === form.slotId && current.guests === form.guests) {
    if ((current.gownSize ?? null) === (form.gownSize ?? null)) return { kind: 'none' };
    if (form.gownSize) return { kind: 'gown', bookingId: current.id, gownSize: form.gownSize };
  }
  return {
    kind: 'book',
    items: [
      { slotId: form.slotId, studentId, subjectId: null, guests: form.guests, gownSize: form.gownSize },
    ],
    cancelBookingIds: current ? [current.id] : [],
  };
}

/** "3 places left", "1 place left", "Full". */
export function freeLabel(free: number): string {
  if (free <= 0) return 'Full';
  return `${free} ${free === 1 ? 'place' : 'places'} left`;
}
