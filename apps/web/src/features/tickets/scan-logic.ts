import {
  type CheckInResponse,
  type DoorTicket,
  type ScanTicketResponse,
  TICKET_TEXT,
  type Ticket,
  type ValidateTicketResponse,
} from '@parley/domain/tickets';
import { formatIsoDateTime } from '@parley/domain/time-zone';
import { ApiError, serverMessage } from '../../lib/api-client';
import { TICKETS_UI } from './tickets-text';

// What the scanner and the door's manual check-in show (spec §4 ticket scanner, §5 validation response,
// §8 "Scan results"), pure so they are tested directly. The components only carry the answers here.

/** A panel about a scanned ticket (by code), or (T DoorTicket, K number) a manual check-in by ticket id. */
export type ScanPanel<T extends { userName: string } = Ticket, K = string> = {
  outcome: 'success' | 'error';
  title: string;
  message: string;
  /** The server's own words when they add something (when and by whom a ticket was scanned). */
  detail: string | null;
  ticket: T | null;
  /** A request that got no usable answer: "Try Again" re-sends it with the same nonce. */
  retry: { ticketId: K; clientNonce: string } | null;
  /** Lines to show without a ticket from the server (an offline door knows only the name on the list). */
  lines?: Array<{ label: string; value: string }>;
};

const panel = <T extends { userName: string }, K>(
  outcome: ScanPanel['outcome'],
  title: string,
  message: string,
  ticket: T | null = null,
  detail: string | null = null,
): ScanPanel<T, K> => ({ outcome, title, message, detail, ticket, retry: null });

/** The server's message when it says more than the spec's fixed text. */
const extra = (server: string | undefined, fixed: string): string | null =>
  server && server !== fixed && server !== TICKET_TEXT.valid && server !== TICKET_TEXT.found ? server : null;

export type ValidateStep = { kind: 'scan'; ticket: Ticket } | { kind: 'done'; panel: ScanPanel };

/**
 * Spec §5: valid false → "Invalid Ticket" with the server message; already scanned → "Already Scanned"
 * with "This ticket has already been scanned."; scan only a valid, unscanned ticket. A ticket of this
 * event that is already scanned counts as "Already Scanned" whichever way the server flags it.
 */
export function afterValidate(data: ValidateTicketResponse['data'], eventId: number): ValidateStep {
  const ticket = data.ticket ?? null;
  const scannedHere = ticket?.scanned === true && ticket.eventId === eventId;
  if (scannedHere) {
    return {
      kind: 'done',
      panel: panel(
        'error',
        TICKET_TEXT.alreadyScannedTitle,
        TICKET_TEXT.alreadyScanned,
        ticket,
        extra(data.message, TICKET_TEXT.alreadyScanned),
      ),
    };
  }
  if (!data.valid || !ticket) {
    return { kind: 'done', panel: panel('error', TICKET_TEXT.invalidTicket, data.message, ticket) };
  }
  return { kind: 'scan', ticket };
}

/** Spec §8: "Ticket Scanned Successfully!", "Already Scanned" or "Scan Failed" with the server message. */
type AdmitAnswer<T> = { success: boolean; message: string; alreadyScanned: boolean; ticket?: T | undefined };

export function afterScan<T extends { userName: string } = Ticket, K = string>(
  data: AdmitAnswer<T>,
  validated: T | null = null,
): ScanPanel<T, K> {
  const ticket = data.ticket ?? validated;
  // The server's success message is the title itself: said once.
  if (data.success)
    return panel(
      'success',
      TICKET_TEXT.scanned,
      data.message === TICKET_TEXT.scanned ? '' : data.message,
      ticket,
    );
  if (data.alreadyScanned) {
    return panel(
      'error',
      TICKET_TEXT.alreadyScannedTitle,
      TICKET_TEXT.alreadyScanned,
      ticket,
      extra(data.message, TICKET_TEXT.alreadyScanned),
    );
  }
  return panel('error', TICKET_TEXT.scanFailed, data.message, ticket);
}

/** Spec §8: a request exception → "Error" with the server message or the fixed text. */
export function scanErrorPanel<T extends { userName: string } = Ticket, K = string>(
  error: unknown,
  attempt: { ticketId: K; clientNonce: string } | null,
  ticket: T | null = null,
): ScanPanel<T, K> {
  // A 4xx is an answer (forbidden, unknown event): sending it again changes nothing.
  const answered = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return {
    ...panel<T, K>('error', TICKET_TEXT.error, serverMessage(error, TICKET_TEXT.scanRequestFailed), ticket),
    retry: answered ? null : attempt,
  };
}

/** The snackbar after a successful scan (spec §8). */
export const scannedSnackbar = (ticket: { userName: string } | null): string | null =>
  ticket ? TICKET_TEXT.scannedFor(ticket.userName) : null;

/** The result panel's lines (spec §2): Name, Email, Event and, when scanned, Scanned. */
/** One line of a ticket's details (Name, Email, Event, Scanned). */
export type ResultLine = { label: string; value: string };

export function resultLines(ticket: Ticket): ResultLine[] {
  const lines: Array<{ label: string; value: string }> = [
    { label: TICKETS_UI.name, value: ticket.userName },
    { label: TICKETS_UI.email, value: ticket.userEmail },
    { label: TICKETS_UI.event, value: ticket.eventName },
  ];
  if (ticket.scanned && ticket.scannedDate) {
    const who = ticket.scannedByName ? ` (${ticket.scannedByName})` : '';
    lines.push({
      label: TICKETS_UI.scanned,
      value: `${formatIsoDateTime(ticket.scannedDate, ticket.timeZone)}${who}`,
    });
  }
  return lines;
}

// ── the whole check of one code: validate, then scan once ─────────────────────────────────────────────

export type ScanCalls = {
  validate: (ticketId: string, eventId: number) => Promise<ValidateTicketResponse>;
  scan: (ticketId: string, eventId: number, clientNonce: string) => Promise<ScanTicketResponse>;
  newNonce: () => string;
};

export type CheckResult<T extends { userName: string } = Ticket, K = string> = {
  panel: ScanPanel<T, K>;
  scanned: T | null;
};

/** Sends one admission (a retry passes the first attempt's nonce, so the server answers it again). */
async function admitWith<T extends { userName: string }, K>(
  send: (key: K, eventId: number, clientNonce: string) => Promise<{ data: AdmitAnswer<T> }>,
  key: K,
  eventId: number,
  clientNonce: string,
  known: T | null,
): Promise<CheckResult<T, K>> {
  try {
    const answer = await send(key, eventId, clientNonce);
    const result = afterScan<T, K>(answer.data, known);
    return { panel: result, scanned: answer.data.success ? result.ticket : null };
  } catch (error) {
    return { panel: scanErrorPanel<T, K>(error, { ticketId: key, clientNonce }, known), scanned: null };
  }
}

/** Sends scan-ticket once for a code. */
export const admit = (
  calls: Pick<ScanCalls, 'scan'>,
  ticketId: string,
  eventId: number,
  clientNonce: string,
  validated: Ticket | null = null,
): Promise<CheckResult> => admitWith(calls.scan, ticketId, eventId, clientNonce, validated);

/** The door's manual check-in (issue 35): tickets/check-in by the ticket id its search showed, never a code. */
export const checkInById = (
  send: (id: number, eventId: number, clientNonce: string) => Promise<CheckInResponse>,
  id: number,
  eventId: number,
  clientNonce: string,
  picked: DoorTicket | null,
): Promise<CheckResult<DoorTicket, number>> => admitWith(send, id, eventId, clientNonce, picked);

/** Spec §4/§5: validate the code; scan only a valid, unscanned ticket. */
export async function checkCode(calls: ScanCalls, ticketId: string, eventId: number): Promise<CheckResult> {
  let step: ValidateStep;
  try {
    step = afterValidate((await calls.validate(ticketId, eventId)).data, eventId);
  } catch (error) {
    return { panel: scanErrorPanel(error, null), scanned: null };
  }
  if (step.kind === 'done') return { panel: step.panel, scanned: null };
  return admit(calls, ticketId, eventId, calls.newNonce(), step.ticket);
}
