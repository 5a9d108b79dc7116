import type { MyEventsFields, OpenEventSummaryItem } from '@parley/domain/booking';
import { isTicketedGroup } from '@parley/domain/event-groups';
import { ROLE_LABELS, type Role } from '@parley/domain/roles';

// Rules of the home "My Events" section (spec §2 Home, §3 Open event summary item, §4 calendar state,
// §5 scanning, §9 calendar constants), pure so they are tested directly.

export type ViewAsRole = Exclude<Role, 'admin'>;
export type ViewAsItem = { value: Role; label: string };

const VIEW_AS_ROLES: readonly ViewAsRole[] = ['teacher', 'parent', 'student'];

export const isViewAsRole = (value: unknown): value is ViewAsRole =>
  typeof value === 'string' && (VIEW_AS_ROLES as readonly string[]).includes(value);

/**
 * The roles "View as" offers: the server's viewAsSelectorItems without Admin; before the home data has
 * arrived (or when it lists none), the non-admin roles the user holds.
 */
export function viewAsOptions(
  items: readonly ViewAsItem[] | undefined,
  userRoles: readonly Role[],
): Array<{ value: ViewAsRole; label: string }> {
  const fromServer = (items ?? []).flatMap((item) =>
    isViewAsRole(item.value) ? [{ value: item.value, label: item.label }] : [],
  );
  if (fromServer.length > 0) return fromServer;
  return VIEW_AS_ROLES.filter((role) => userRoles.includes(role)).map((role) => ({
    value: role,
    label: ROLE_LABELS[role],
  }));
}

/** Spec §2: the selector appears only when more than one role applies. */
export const showsViewAsSelector = (options: readonly unknown[]): boolean => options.length > 1;

/** Spec §2: the remembered last choice when it is still offered, otherwise the first entry. */
export function defaultViewAs(
  options: ReadonlyArray<{ value: ViewAsRole }>,
  remembered: string | null,
): ViewAsRole | null {
  const match = options.find((option) => option.value === remembered);
  return match?.value ?? options[0]?.value ?? null;
}

/** Spec §2: "Some user details missing…" when the list shown is for a role the user does not hold. */
export const roleMissing = (role: ViewAsRole, userRoles: readonly Role[]): boolean =>
  !userRoles.includes(role);

/** The role's list of open events from the home data. */
export function openEventsFor(data: MyEventsFields, role: ViewAsRole): OpenEventSummaryItem[] {
  if (role === 'teacher') return data.teacherOpenEventsSummary;
  if (role === 'parent') return data.parentOpenEventsSummary;
  return data.studentOpenEventsSummary;
}

type Item = Pick<
  OpenEventSummaryItem,
  'enableTicket' | 'eventTypeGroupInt' | 'iCanScan' | 'isActive' | 'isEnabled'
>;

/** A ticketed event (spec §3: group 2 or 3) with tickets switched on. */
export const isTicketed = (item: Pick<Item, 'enableTicket' | 'eventTypeGroupInt'>): boolean =>
  item.enableTicket && isTicketedGroup(item.eventTypeGroupInt);

const bookable = (item: Item) => item.isEnabled && item.isActive;

export type ItemActions = {
  updateBooking: boolean;
  showTicket: boolean;
  scanTickets: boolean;
  addToCalendar: boolean;
};

/**
 * Which buttons an item shows (spec §2, §4, §5, §6). Parent: "Update booking" while the event is enabled
 * and active, "Show Ticket" for ticketed events. Student: "Update booking", "Show Ticket" (ticketed) and
 * "Add to Calendar" need isEnabled and isActive; "Scan Tickets" needs iCanScan on a ticketed event.
 * Teacher: "Scan Tickets" when they are a scanner of a ticketed event (issue 10: staff scan at the door).
 */
export function itemActions(role: ViewAsRole, item: Item): ItemActions {
  const ticketed = isTicketed(item);
  if (role === 'teacher')
    return {
      updateBooking: false,
      showTicket: false,
      scanTickets: item.iCanScan && ticketed,
      addToCalendar: false,
    };
  if (role === 'parent')
    return { updateBooking: bookable(item), showTicket: ticketed, scanTickets: false, addToCalendar: false };
  return {
    updateBooking: bookable(item),
    showTicket: bookable(item) && ticketed,
    scanTickets: item.iCanScan && ticketed,
    addToCalendar: bookable(item),
  };
}

/** The teacher's booking line: their own summary, else the general one ("No bookings found."). */
export const teacherBookingLine = (
  item: Pick<OpenEventSummaryItem, 'teacherBookingDetails' | 'bookingDetails'>,
): string => item.teacherBookingDetails ?? item.bookingDetails;

/** The family's booking line for the role shown, else the general one. */
export function familyBookingLine(
  role: 'parent' | 'student',
  item: Pick<OpenEventSummaryItem, 'parentBookingDetails' | 'studentBookingDetails' | 'bookingDetails'>,
): string {
  return (role === 'parent' ? item.parentBookingDetails : item.studentBookingDetails) ?? item.bookingDetails;
}

// ── calendar (spec §3 calendarEvents, §4 calendar state, §9) ────────────────────────────────────────

export type CalendarEntry = { id: number; name: string };

/** The calendarEvents list from local storage, tolerating anything malformed. */
export function parseCalendarEntries(raw: unknown): CalendarEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, name } = entry as { id?: unknown; name?: unknown };
    return typeof id === 'number' && Number.isFinite(id)
      ? [{ id, name: typeof name === 'string' ? name : '' }]
      : [];
  });
}

/** Adds an event to the list once. */
export function withCalendarEntry(entries: readonly CalendarEntry[], entry: CalendarEntry): CalendarEntry[] {
  return entries.some((known) => known.id === entry.id) ? [...entries] : [...entries, entry];
}

/** Spec §4: added when the server says so or when this device has added it. */
export const calendarAdded = (
  item: Pick<OpenEventSummaryItem, 'id' | 'calendarStatus'>,
  entries: readonly CalendarEntry[],
): boolean => item.calendarStatus === 'added' || entries.some((entry) => entry.id === item.id);

// The spec §3/§9 payload lives with the device calendar in lib/calendar-event.ts.
export { CALENDAR_ALERT_MINUTES, calendarEventPayload as calendarPayload } from '../../lib/calendar-event';

/** A relative link stays in the app (router link); anything else is a plain anchor. */
export const isInternalLink = (link: string): boolean => link.startsWith('/') && !link.startsWith('//');
