// The kinds of event, apart from the events module's schemas: the home page and the booking link ask
// "is this ticketed?" and should not download zod for it (decision 019).

/** Event type groups: 1 parent-teacher, 2 ticketed, 3 ceremony (ticketed, guests, gowns), 4 booking. */
export const EVENT_GROUPS = { parentTeacher: 1, ticketed: 2, ceremony: 3, booking: 4 } as const;
export type EventGroup = 1 | 2 | 3 | 4;
/** Spec §9: ticketed event groups are 2 and 3. */
export const TICKETED_GROUPS: readonly EventGroup[] = [2, 3];
export const isTicketedGroup = (group: number) => group === 2 || group === 3;
