import { createHash, randomBytes } from 'node:crypto';
import { BOOKING_STATE_TEXT } from '@parley/domain/booking';
import { isTicketedGroup } from '@parley/domain/event-groups';
import { SERVER_TEXT } from '@parley/domain/messages';
import {
  type CheckInResponse,
  type DoorState,
  type DoorTicket,
  guestName,
  OFFLINE_LIST_TTL_MS,
  type OfflineList,
  type ScanTicketResponse,
  type ScanWindowState,
  type SyncScansRequest,
  type SyncScansResponse,
  scanWindowState,
  TICKET_TEXT,
  type Ticket,
  ticketPath,
  type ValidateTicketResponse,
} from '@parley/domain/tickets';
import { formatLocalDateTime } from '@parley/domain/time-zone';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/http-error';
import type { Session } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { bookingPeople, eventSubject } from '../audit/audit-entries';
import * as repo from './tickets.repository';

// Tickets and the door (issue 10, decision 013). A ticket is issued in the booking's transaction, one per
// attendee and one per guest; it is voided with its booking by a trigger, whatever path cancels it.
// Admitting is one conditional UPDATE; every scan, refusal and undo is recorded.

/** 128 random bits, base64url: nothing guessable, nothing an id could lead to. */
export const newTicketCode = () => randomBytes(16).toString('base64url');

type Caller = Pick<Session, 'userId' | 'schoolId' | 'roles'>;
const isAdmin = (caller: Caller) => caller.roles.includes('admin');

/**
 * Tickets for new bookings of a ticketed event, in the booking's transaction: the attendee's and one per
 * guest. Returns what was issued (the booking's mail carries the tickets).
 */
export async function issueTickets(
  trx: Db,
  schoolId: number,
  eventId: number,
  bookings: TicketedBooking[],
): Promise<IssuedTicket[]> {
  return insertTickets(
    trx,
    schoolId,
    eventId,
    bookings.flatMap((booking) =>
      Array.from({ length: 1 + booking.guests }, (_, head) => ({ booking, head })),
    ),
  );
}

type TicketedBooking = { id: number; parent_id: number | null; student_id: number | null; guests: number };
export type IssuedTicket = { bookingId: number; guestIndex: number; code: string };

/** New tickets, each a booking's head (0 the attendee, 1… a guest) with a fresh code. */
async function insertTickets(
  trx: Db,
  schoolId: number,
  eventId: number,
  heads: Array<{ booking: TicketedBooking; head: number }>,
): Promise<IssuedTicket[]> {
  const rows = heads.map(({ booking, head }) => ({
    school_id: schoolId,
    event_id: eventId,
    booking_id: booking.id,
    user_id: booking.student_id ?? booking.parent_id ?? 0,
    guest_index: head,
    code: newTicketCode(),
  }));
  await repo.insertTickets(trx, rows);
  return rows.map((row) => ({ bookingId: row.booking_id, guestIndex: row.guest_index, code: row.code }));
}

/**
 * A booking's tickets brought to its heads, keeping every live ticket and its code (issue 34): a head
 * without a live ticket gets one; fewer guests void the highest-numbered guest tickets not yet admitted (an
 * admitted guest cannot be taken off: 409). New guests take the lowest free guest numbers. Returns the
 * tickets issued.
 */
export async function matchTickets(
  trx: Db,
  schoolId: number,
  eventId: number,
  booking: TicketedBooking,
): Promise<IssuedTicket[]> {
  const live = new Set(await repo.liveTicketIndexes(trx, schoolId, booking.id));
  const guestsLive = [...live].filter((head) => head > 0).length;
  const extra = guestsLive - booking.guests;
  if (extra > 0 && (await repo.voidUnadmittedGuestTickets(trx, schoolId, booking.id, extra)) < extra)
    throw conflict(BOOKING_STATE_TEXT.guestsAdmitted);
  const heads = live.has(0) ? [] : [0];
  for (let guest = 1, missing = -extra; missing > 0; guest++)
    if (!live.has(guest)) {
      heads.push(guest);
      missing -= 1;
    }
  return insertTickets(
    trx,
    schoolId,
    eventId,
    heads.map((head) => ({ booking, head })),
  );
}

function toTicket(ctx: AppContext, row: repo.TicketRow): Ticket {
  const attendee = `${row.first_name} ${row.last_name}`.trim();
  return {
    ticketId: row.code,
    eventId: row.event_id,
    userId: row.user_id,
    scannedBy: row.scanned_by,
    scannedByName: row.scanned_by_name,
    qrCodeUrl: `${ctx.config.appUrl}${ticketPath(row.code)}`,
    scanned: row.scanned_at !== null,
    scannedDate: row.scanned_at?.toISOString() ?? null,
    userName: row.guest_index > 0 ? guestName(row.guest_index, attendee) : attendee,
    userEmail: row.email,
    eventName: row.event_name,
    guestIndex: row.guest_index,
    eventDateLabel: formatLocalDateTime(row.starts_at, row.timezone),
    location: row.location,
    timeZone: row.timezone,
  };
}

/** "Already scanned Wed 25 Nov 2026, 19:02 by Ann Lee." in the school's time zone and style. */
function alreadyText(row: repo.TicketRow): string {
  const when = row.scanned_at ? formatLocalDateTime(row.scanned_at, row.timezone) : '';
  return TICKET_TEXT.alreadyScannedBy(when, row.scanned_by_name ?? 'a former member of staff');
}

async function ticketedEvent(db: Db, schoolId: number, eventId: number) {
  const event = await repo.ticketEvent(db, schoolId, eventId);
  if (!event || !isTicketedGroup(event.group_int)) throw notFound(TICKET_TEXT.loadNotFound);
  return event;
}

/** Admins scan every event of their school; anyone else only the events that name them (canScanUserIds). */
async function requireScanner(db: Db, caller: Caller, eventId: number): Promise<void> {
  if (isAdmin(caller)) return;
  if (!(await repo.isScanner(db, caller.schoolId, eventId, caller.userId)))
    throw forbidden(TICKET_TEXT.notScanner);
}

/** GET tickets/get-event-ticket: a person's own tickets, a parent's child's, any for the school's admins. */
export async function eventTicket(ctx: AppContext, caller: Caller, eventId: number, userId: number) {
  await ticketedEvent(ctx.db, caller.schoolId, eventId);
  const allowed =
    caller.userId === userId ||
    isAdmin(caller) ||
    (caller.roles.includes('parent') &&
      (await repo.isParentOf(ctx.db, caller.schoolId, caller.userId, userId)));
  if (!allowed) throw forbidden(TICKET_TEXT.loadForbidden);
  const tickets = (await repo.ticketsOfHolder(ctx.db, caller.schoolId, eventId, userId)).map((row) =>
    toTicket(ctx, row),
  );
  const ticket = tickets.find((t) => t.guestIndex === 0) ?? null;
  return {
    data: {
      success: true,
      ticket,
      tickets,
      message: tickets.length > 0 ? TICKET_TEXT.found : TICKET_TEXT.noTicketFound,
    },
  };
}

/** A ticket as a door names it: its code (a scan) or its id (a manual check-in from the search). */
type Presented = { code: string } | { id: number };

const readPresented = (db: Db, caller: Caller, presented: Presented) =>
  'code' in presented
    ? repo.ticketAtDoor(db, caller.schoolId, presented.code, caller.userId)
    : repo.ticketAtDoorById(db, caller.schoolId, presented.id, caller.userId);

/** The door's window refusal in the school's time zone, or null when the scan falls inside it. */
function windowRefusal(row: repo.DoorRow, claimedAt: Date | undefined): string | null {
  const window = { opensAt: row.scan_opens_at, closesAt: row.scan_closes_at };
  const state: ScanWindowState = scanWindowState(window, row.checked_at, claimedAt);
  if (state === 'undated') return TICKET_TEXT.scanUndated;
  if (state === 'notYet' && window.opensAt)
    return TICKET_TEXT.scanOpens(formatLocalDateTime(window.opensAt, row.timezone));
  if (state === 'closed' && window.closesAt)
    return TICKET_TEXT.scanClosed(formatLocalDateTime(window.closesAt, row.timezone));
  return null;
}

/**
 * The presented ticket, after the caller's right to scan is checked: for the event the door names, or (no
 * event named) the ticket's own. One read on the common path: the ticket comes with whether the caller
 * scans its event and its event's window. A code that is no ticket of this door's event, whichever event
 * or school it belongs to, answers the same and names no holder (issue 35). An offline door's scan is
 * judged by when it claims it was made (`claimedAt`, within reason: scanWindowState).
 */
async function ticketForScanner(
  db: Db,
  caller: Caller,
  presented: Presented,
  eventId: number | undefined,
  claimedAt?: Date,
) {
  const row = await readPresented(db, caller, presented);
  const door = eventId ?? row?.event_id;
  if (door === undefined) {
    if (!isAdmin(caller)) throw forbidden(TICKET_TEXT.notScanner);
    return { row: undefined, refusal: TICKET_TEXT.unknown };
  }
  const mayScan =
    isAdmin(caller) ||
    (row && row.event_id === door
      ? row.i_scan
      : await repo.isScanner(db, caller.schoolId, door, caller.userId));
  if (!mayScan) throw forbidden(TICKET_TEXT.notScanner);
  if (!row || row.event_id !== door) return { row: undefined, refusal: TICKET_TEXT.unknown };
  if (row.status !== 'valid') return { row, refusal: TICKET_TEXT.voided };
  return { row, refusal: windowRefusal(row, claimedAt) };
}

/** GET tickets/validate-ticket: may this ticket come in? An admitted one is valid and says when and by whom. */
export async function validateTicket(
  ctx: AppContext,
  caller: Caller,
  code: string,
  eventId: number | undefined,
): Promise<ValidateTicketResponse> {
  const { row, refusal } = await ticketForScanner(ctx.db, caller, { code }, eventId);
  if (!row || refusal) return { data: { valid: false, message: refusal ?? TICKET_TEXT.unknown } };
  const ticket = toTicket(ctx, row);
  return { data: { valid: true, message: ticket.scanned ? alreadyText(row) : TICKET_TEXT.valid, ticket } };
}

/** Thrown inside a scan's transaction when its nonce was already answered: rolls back, then replays. */
class AnsweredBefore extends Error {}

/**
 * POST tickets/scan-ticket: admits a ticket once. The conditional UPDATE decides between two doors. The
 * scan is recorded last with its answer, under a unique (scanner, nonce): a retry of an answered scan
 * rolls back whatever it did (a re-admission after an undo, say) and answers what the first one did.
 * Statements: the ticket with the right to scan, the admission, the record.
 */
export async function scanTicket(
  ctx: AppContext,
  caller: Caller,
  input: {
    ticket: Presented;
    eventId?: number | undefined;
    clientNonce?: string | undefined;
    deviceId?: string | undefined;
    /** An offline door's scan, synced later: when it admitted the person, by its own clock. */
    offlineAt?: Date | undefined;
  },
): Promise<ScanTicketResponse> {
  const nonce = input.clientNonce ?? null;
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const { row, refusal } = await ticketForScanner(
        trx,
        caller,
        input.ticket,
        input.eventId,
        input.offlineAt,
      );
      if (!row)
        return { data: { success: false, message: refusal ?? TICKET_TEXT.unknown, alreadyScanned: false } };
      let answer: ScanTicketResponse;
      let action: 'admit' | 'refused' | 'duplicate' = 'refused';
      const admitted = refusal
        ? undefined
        : await repo.admitTicket(trx, caller.schoolId, row.id, {
            by: caller.userId,
            device: input.deviceId ?? null,
          });
      if (refusal) {
        answer = {
          data: { success: false, message: refusal, alreadyScanned: false, ticket: toTicket(ctx, row) },
        };
      } else if (admitted) {
        action = 'admit';
        const now = { ...row, ...admitted, scanned_by: caller.userId };
        answer = {
          data: {
            success: true,
            message: TICKET_TEXT.scanned,
            alreadyScanned: false,
            ticket: toTicket(ctx, now),
          },
        };
      } else {
        // Another door admitted it first (or before): say when and by whom.
        const now = row.scanned_at ? row : ((await readPresented(trx, caller, input.ticket)) ?? row);
        answer = {
          data: {
            success: false,
            message: alreadyText(now),
            alreadyScanned: true,
            ticket: toTicket(ctx, now),
          },
        };
        // An offline door has already let the person in: a second admission is a duplicate for the admin.
        if (input.offlineAt) action = 'duplicate';
      }
      const recorded = await repo.recordScan(trx, {
        school_id: caller.schoolId,
        event_id: row.event_id,
        ticket_id: row.id,
        action,
        by_user: caller.userId,
        device_id: input.deviceId ?? null,
        client_nonce: nonce,
        device_time: input.offlineAt ?? null,
        answer: JSON.stringify(answer),
      });
      if (!recorded) throw new AnsweredBefore();
      return answer;
    });
  } catch (error) {
    if (!(error instanceof AnsweredBefore) || !nonce) throw error;
    const first = await repo.scanAnswer(ctx.db, caller.schoolId, caller.userId, nonce);
    if (!first) throw error;
    return first as ScanTicketResponse;
  }
}

/** POST tickets/undo-scan (admin): a mistake at the door; the ticket may be scanned again. Recorded. */
export async function undoScan(ctx: AppContext, caller: Caller, presented: Presented, actor: Actor) {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await readPresented(trx, caller, presented);
    if (!row) throw notFound(SERVER_TEXT.notFound);
    if (!(await repo.unadmitTicket(trx, caller.schoolId, row.id))) throw conflict(TICKET_TEXT.notScannedYet);
    await repo.recordScan(trx, {
      school_id: caller.schoolId,
      event_id: row.event_id,
      ticket_id: row.id,
      action: 'undo',
      by_user: caller.userId,
      device_id: null,
      client_nonce: null,
      device_time: null,
      answer: null,
    });
    const attendee = `${row.first_name} ${row.last_name}`.trim();
    await recordAudit(trx, actor, {
      action: 'ticket.scan_undone',
      subject: {
        type: 'ticket',
        id: row.id,
        label: `${row.guest_index > 0 ? guestName(row.guest_index, attendee) : attendee}, ${row.event_name}`,
      },
      eventId: row.event_id,
      people: [row.user_id],
      detail: row.scanned_at ? { at: formatLocalDateTime(row.scanned_at, row.timezone) } : {},
    });
    const after = await readPresented(trx, caller, presented);
    return {
      data: {
        success: true,
        message: TICKET_TEXT.scanUndone,
        alreadyScanned: false,
        ...(after && { ticket: toTicket(ctx, after) }),
      },
    };
  });
}

/**
 * POST tickets/generate-tickets (admin): fresh tickets (new codes) for the people who booked; old ones not
 * yet admitted void.
 */
export async function generateTickets(
  ctx: AppContext,
  caller: Caller,
  eventId: number,
  attendeeIds: number[],
  actor: Actor,
) {
  const event = await repo.ticketEvent(ctx.db, caller.schoolId, eventId);
  if (!event) throw notFound(TICKET_TEXT.loadNotFound);
  if (!isTicketedGroup(event.group_int))
    throw unprocessable(TICKET_TEXT.notTicketed, { eventId: [TICKET_TEXT.notTicketed] });
  const issued = await ctx.db.transaction().execute(async (trx) => {
    const bookings = await repo.liveBookings(trx, caller.schoolId, eventId, attendeeIds);
    // An admitted ticket stays (its person is in); the others get new codes.
    await repo.voidUnadmittedTickets(
      trx,
      caller.schoolId,
      bookings.map((booking) => booking.id),
    );
    let issued = 0;
    for (const booking of bookings)
      issued += (await matchTickets(trx, caller.schoolId, eventId, booking)).length;
    if (issued > 0)
      await recordAudit(trx, actor, {
        action: 'tickets.reissued',
        subject: eventSubject(event),
        eventId,
        people: bookingPeople(bookings),
        detail: { tickets: issued },
      });
    return issued;
  });
  return { data: { success: true, message: TICKET_TEXT.issued(issued), issued } };
}

/** A ticket as the door's lists and a manual check-in show it: no code, no QR, no email (issue 35). */
const doorTicket = (id: number, ticket: Ticket): DoorTicket => ({
  id,
  eventId: ticket.eventId,
  userName: ticket.userName,
  guestIndex: ticket.guestIndex,
  scanned: ticket.scanned,
  scannedDate: ticket.scannedDate,
  scannedByName: ticket.scannedByName,
});

/**
 * POST tickets/check-in: a manual check-in from the door's search (a holder whose phone died), by ticket
 * id, for whoever may scan at this door: the same path, window and single admission as a scan. Its answer
 * names the ticket as the search did, never by its code.
 */
export async function checkIn(
  ctx: AppContext,
  caller: Caller,
  input: { eventId: number; id: number; clientNonce?: string | undefined; deviceId?: string | undefined },
): Promise<CheckInResponse> {
  await ticketedEvent(ctx.db, caller.schoolId, input.eventId);
  const { data } = await scanTicket(ctx, caller, {
    ticket: { id: input.id },
    eventId: input.eventId,
    clientNonce: input.clientNonce,
    deviceId: input.deviceId,
  });
  const { ticket, ...rest } = data;
  return { data: ticket ? { ...rest, ticket: doorTicket(input.id, ticket) } : rest };
}

const RECENT = 20;

/** GET tickets/door: the live count for admins and scanners, the latest admissions, a name search. */
export async function door(
  ctx: AppContext,
  caller: Caller,
  eventId: number,
  q: string | undefined,
): Promise<DoorState> {
  const event = await ticketedEvent(ctx.db, caller.schoolId, eventId);
  await requireScanner(ctx.db, caller, eventId);
  const [counts, recent, matches, duplicates] = await Promise.all([
    repo.doorCounts(ctx.db, caller.schoolId, eventId),
    repo.recentAdmissions(ctx.db, caller.schoolId, eventId, RECENT),
    q && q.length >= 2
      ? repo.searchTickets(ctx.db, caller.schoolId, eventId, q, RECENT)
      : Promise.resolve([]),
    repo.duplicateScans(ctx.db, caller.schoolId, eventId, RECENT),
  ]);
  return {
    eventId,
    eventName: event.name,
    timeZone: event.timezone,
    expected: counts.expected,
    admitted: counts.admitted,
    toCome: counts.to_come,
    guestsExpected: counts.guests_expected,
    guestsAdmitted: counts.guests_admitted,
    recent: recent.map((row) => doorTicket(row.id, toTicket(ctx, row))),
    matches: matches.map((row) => doorTicket(row.id, toTicket(ctx, row))),
    duplicates: duplicates.map((row) => ({
      ticket: doorTicket(row.id, toTicket(ctx, row)),
      deviceId: row.device_id,
      byName: row.by_name,
      scannedAt: row.device_time?.toISOString() ?? null,
      receivedAt: row.received_at.toISOString(),
    })),
  };
}

/** A ticket as an offline list names it: the SHA-256 of its code, never the code (decision 013). */
export const ticketHash = (code: string) => createHash('sha256').update(code).digest('base64url');

/** GET tickets/offline-list: what a door needs to keep admitting when the network drops. */
export async function offlineList(ctx: AppContext, caller: Caller, eventId: number): Promise<OfflineList> {
  const event = await ticketedEvent(ctx.db, caller.schoolId, eventId);
  await requireScanner(ctx.db, caller, eventId);
  const rows = await repo.eventTicketList(ctx.db, caller.schoolId, eventId);
  const issuedAt = new Date();
  return {
    eventId,
    eventName: event.name,
    issuedAt: issuedAt.toISOString(),
    validUntil: new Date(issuedAt.getTime() + OFFLINE_LIST_TTL_MS).toISOString(),
    timeZone: event.timezone,
    opensAt: event.scan_opens_at?.toISOString() ?? null,
    closesAt: event.scan_closes_at?.toISOString() ?? null,
    tickets: rows.map((row) => {
      const attendee = `${row.first_name} ${row.last_name}`.trim();
      return {
        hash: ticketHash(row.code),
        userName: row.guest_index > 0 ? guestName(row.guest_index, attendee) : attendee,
        guestIndex: row.guest_index,
        scanned: row.scanned_at !== null,
      };
    }),
  };
}

/**
 * POST tickets/sync-scans: an offline door's admissions, in its order, each through the scan path. The
 * server's receipt decides: the first admission stands, a later one from another door is recorded as a
 * duplicate (the person was let in twice) for the admin. A resent batch (same nonces) changes nothing.
 */
export async function syncScans(
  ctx: AppContext,
  caller: Caller,
  body: SyncScansRequest,
): Promise<SyncScansResponse> {
  await ticketedEvent(ctx.db, caller.schoolId, body.eventId);
  await requireScanner(ctx.db, caller, body.eventId);
  const results: SyncScansResponse['data']['results'] = [];
  for (const scan of body.scans) {
    const { data } = await scanTicket(ctx, caller, {
      ticket: { code: scan.ticketId },
      eventId: body.eventId,
      clientNonce: scan.clientNonce,
      deviceId: body.deviceId,
      offlineAt: new Date(scan.scannedAt),
    });
    const outcome = data.success ? 'admitted' : data.alreadyScanned ? 'duplicate' : 'invalid';
    results.push({ clientNonce: scan.clientNonce, ticketId: scan.ticketId, outcome, message: data.message });
  }
  return { data: { results } };
}
