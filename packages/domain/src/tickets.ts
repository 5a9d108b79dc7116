import { idField, idParam } from './fields';
import { z } from './zod';

// Tickets and the door (issue 10; spec §2 "Ticket display dialog" and "Ticket scanner dialog", §3 Ticket,
// §4, §5 scanner rules, §6, §7 Tickets, §8 "Ticket load", "Camera", "Scan results", §9). One ticket per
// attendee: the person booked (the child, or the parent booking for themselves) and one per guest.
// Every answer of the §7 calls is wrapped in `data`, as the spec's calls read it.

// ── constants (spec §9) ──────────────────────────────────────────────────────────────────────────────

/** The QR in "Your Ticket" is 175×175; elsewhere (print, mail) 300×300; error correction Q. */
export const TICKET_QR_SIZE = 175;
export const QR_DEFAULT_SIZE = 300;
export const QR_ERROR_CORRECTION = 'Q';
/** The scanner looks at a frame every 100 ms; the camera prefers the rear one at 1280×720, at least 640×480. */
export const SCAN_INTERVAL_MS = 100;
export const CAMERA_IDEAL = { width: 1280, height: 720 } as const;
export const CAMERA_MIN = { width: 640, height: 480 } as const;
/** After OverconstrainedError the camera is asked again with basic settings after 1 s (spec §8). */
export const CAMERA_RETRY_MS = 1000;
/**
 * How long a door may trust the ticket list it took when the network dropped (decision 013): one evening.
 * Online, the scanner refreshes it every 30 s; past this age it stops admitting offline.
 */
export const OFFLINE_LIST_TTL_MS = 12 * 60 * 60 * 1000;
export const OFFLINE_LIST_REFRESH_MS = 30_000;
/** At most this many offline scans travel in one sync. */
export const SYNC_BATCH_MAX = 500;

/** A ticket code: 128 random bits, base64url (22 characters); the QR text is {APP_URL}/t/{code}. */
export const TICKET_CODE_MAX = 100;
/** Where a ticket's QR points (a phone's own camera app opens it). */
export const ticketPath = (code: string) => `/t/${code}`;

/** Spec §5: a decoded code containing "/" is reduced to its last path segment; empty is ignored (null). */
export function ticketCodeFromScan(decoded: string): string | null {
  const trimmed = decoded.trim();
  const code = trimmed.includes('/')
    ? (trimmed.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '')
    : trimmed;
  return code.length > 0 ? code : null;
}

/**
 * An offline door's scans may reach the server this long after the door's window has closed (a list is
 * trusted as long: decision 013); later ones are refused.
 */
export const OFFLINE_SYNC_GRACE_MS = OFFLINE_LIST_TTL_MS;

/**
 * The door's window (issue 35): from `opensAt` (hours before the event's first section starts) to
 * `closesAt` (hours after its last one ends); both null while the event has no section.
 */
export type ScanWindow = { opensAt: Date | null; closesAt: Date | null };
export type ScanWindowState = 'open' | 'notYet' | 'closed' | 'undated';

/**
 * Whether a scan falls in the window. An offline door's scan counts at the time it claims, but never later
 * than the server heard of it (a clock set ahead cannot move a scan into a window not yet open), and only
 * if it arrives within OFFLINE_SYNC_GRACE_MS of the window's close (a clock set back cannot move a late
 * scan into a window long closed).
 */
export function scanWindowState(window: ScanWindow, receivedAt: Date, claimedAt?: Date): ScanWindowState {
  const { opensAt, closesAt } = window;
  if (!opensAt || !closesAt) return 'undated';
  const at = claimedAt && claimedAt < receivedAt ? claimedAt : receivedAt;
  if (at < opensAt) return 'notYet';
  if (at > closesAt || receivedAt.getTime() > closesAt.getTime() + OFFLINE_SYNC_GRACE_MS) return 'closed';
  return 'open';
}

/** "Guest 1 of Jane Smith": a guest's ticket carries the attendee's name. */
export const guestName = (index: number, attendee: string) => `Guest ${index} of ${attendee}`;

// ── texts (word for word from the spec; server texts where the spec is silent) ───────────────────────

export const TICKET_TEXT = {
  // §2 Ticket display dialog
  yourTicket: 'Your Ticket',
  loading: 'Loading your ticket...',
  tryAgain: 'Try Again',
  noTicket: 'No ticket available for this event.',
  scannedChip: 'Scanned',
  readyChip: 'Ready to Scan',
  scannedAt: (when: string) => `Scanned: ${when}`,
  showToStaff: 'Show this QR code to event staff for scanning.',
  keepTicket: 'Keep this ticket until after the event.',
  // §5
  missingInfo: 'Missing event or user information',
  // §8 Ticket load
  loadFailed: 'Failed to load ticket',
  noTicketFound: 'No ticket found for this event',
  loadForbidden: 'You do not have permission to view tickets for this event',
  loadNotFound: 'Event not found or tickets not enabled',
  loadOther: 'Failed to load your ticket',
  // §2 Ticket scanner dialog
  scanTicket: 'Scan Ticket',
  startingCamera: 'Starting camera...',
  positionCode: 'Position QR code within the frame',
  scanAnother: 'Scan Another',
  mobileRequired: 'Mobile Device Required',
  // §8 Camera
  cameraUnsupported: 'Camera not supported by this browser',
  cameraDeniedState:
    'Camera access denied. Please enable camera permissions in your device settings and reload the app.',
  cameraNotAllowed:
    'Camera permission denied. Please: 1. Allow camera access when prompted 2. Check device settings if needed 3. Reload the app and try again',
  cameraNotFound: 'No camera found on this device. QR scanning requires a camera.',
  cameraNotReadable:
    'Camera is being used by another application. Please close other camera apps and try again.',
  cameraOverconstrained: 'Camera requirements not met. Trying with basic settings...',
  cameraBasicFailed: 'Unable to access camera with any settings. Please check device permissions.',
  cameraOther: 'Failed to access camera. Please check permissions and try again.',
  // §8 Scan results and §5
  invalidTicket: 'Invalid Ticket',
  alreadyScannedTitle: 'Already Scanned',
  alreadyScanned: 'This ticket has already been scanned.',
  scanFailed: 'Scan Failed',
  scanned: 'Ticket Scanned Successfully!',
  error: 'Error',
  scanRequestFailed: 'Failed to scan ticket. Please try again.',
  scannedFor: (name: string) => `Ticket scanned successfully for ${name}`,
  // Server answers (the spec shows the server's message without its text)
  found: 'Ticket found.',
  valid: 'Valid ticket.',
  // A code of another event, of another school or of no one: one answer that names no holder (issue 35).
  unknown: 'This is not a ticket for this event.',
  voided: 'This ticket was cancelled with its booking.',
  scanOpens: (when: string) => `Scanning for this event opens ${when}.`,
  scanClosed: (when: string) => `Scanning for this event closed ${when}.`,
  scanUndated: 'Scanning for this event opens once the event has a date.',
  alreadyScannedBy: (when: string, who: string) => `Already scanned ${when} by ${who}.`,
  notTicketed: 'This event does not issue tickets.',
  notScanner: 'You are not allowed to scan tickets for this event.',
  scanUndone: 'The scan was undone: the ticket can be scanned again.',
  notScannedYet: 'This ticket has not been scanned.',
  issued: (count: number) => `${count} ${count === 1 ? 'ticket' : 'tickets'} issued.`,
  offlineDuplicate: (when: string, who: string) =>
    `Admitted offline, but another door had admitted this ticket first (${when}, ${who}).`,
} as const;

// ── the wire ──────────────────────────────────────────────────────────────────────────────────────────

const code = z.string().trim().min(1).max(TICKET_CODE_MAX);

/** Spec §3 Ticket, plus who the ticket admits (guestIndex 0 is the attendee) and who scanned it. */
export const ticketItem = z.object({
  /** The ticket's code: what the QR carries after {APP_URL}/t/. */
  ticketId: z.string(),
  eventId: z.number(),
  /** The attendee whose ticket it is (a guest's ticket belongs to the attendee who brings them). */
  userId: z.number(),
  scannedBy: z.number().nullable(),
  scannedByName: z.string().nullable(),
  /** The text encoded in the QR: {APP_URL}/t/{code}. */
  qrCodeUrl: z.string(),
  scanned: z.boolean(),
  /** ISO 8601 instant, or null. */
  scannedDate: z.string().nullable(),
  /** The name on the ticket: the attendee's, or "Guest 1 of …". */
  userName: z.string(),
  userEmail: z.string(),
  eventName: z.string(),
  guestIndex: z.number(),
  /** When and where, in the school's time zone, for the ticket and its print. */
  eventDateLabel: z.string().nullable(),
  location: z.string().nullable(),
  /** The school's IANA zone: the ticket's times are shown on its clock (issue 36). */
  timeZone: z.string(),
});
export type Ticket = z.infer<typeof ticketItem>;

/** GET tickets/get-event-ticket?eventId&userId */
export const eventTicketQuery = z.strictObject({ eventId: idParam, userId: idParam });
export const eventTicketResponse = z.object({
  data: z.object({
    success: z.boolean(),
    /** The person's own ticket (spec). */
    ticket: ticketItem.nullable(),
    /** Every ticket the person holds for the event: their own, then their guests'. */
    tickets: z.array(ticketItem),
    message: z.string().optional(),
  }),
});
export type EventTicketResponse = z.infer<typeof eventTicketResponse>;

/** GET tickets/validate-ticket?ticketId[&eventId]: the door's question, before it admits. */
export const validateTicketQuery = z.strictObject({ ticketId: code, eventId: idParam.optional() });
export const validateTicketResponse = z.object({
  data: z.object({
    valid: z.boolean(),
    message: z.string(),
    ticket: ticketItem.optional(),
  }),
});
export type ValidateTicketResponse = z.infer<typeof validateTicketResponse>;

/**
 * POST tickets/scan-ticket: admits once. `scannedBy` is the spec's field; the server records the caller.
 * A retry with the same clientNonce gets the first answer again.
 */
export const scanTicketRequest = z.strictObject({
  ticketId: code,
  scannedBy: idField.optional(),
  eventId: idField.optional(),
  clientNonce: z.string().trim().min(8).max(100).optional(),
  deviceId: z.string().trim().min(1).max(100).optional(),
});
export const scanTicketResponse = z.object({
  data: z.object({
    success: z.boolean(),
    message: z.string(),
    alreadyScanned: z.boolean(),
    ticket: ticketItem.optional(),
  }),
});
export type ScanTicketResponse = z.infer<typeof scanTicketResponse>;

/** POST tickets/generate-tickets (admin): issues, or re-issues, the tickets of people who booked. */
export const generateTicketsRequest = z.strictObject({
  eventId: idField,
  userIds: z.array(idField).max(5000).default([]),
});
export const generateTicketsResponse = z.object({
  data: z.object({ success: z.boolean(), message: z.string(), issued: z.number() }),
});

/** POST tickets/undo-scan (admin): a mistake at the door, named by code or (from the door's lists) id; recorded. */
export const undoScanRequest = z
  .strictObject({ ticketId: code.optional(), id: idField.optional() })
  .refine((body) => body.ticketId !== undefined || body.id !== undefined, {
    path: ['id'],
    message: 'Name the ticket by its id or its code.',
  });

/**
 * A ticket as the door's lists show it (issue 35): who, whether admitted, and the id a manual check-in
 * names — never its code, its QR or the holder's email, so a scanner cannot collect the event's tickets.
 */
export const doorTicketItem = z.object({
  /** The ticket's id (not its code): what tickets/check-in and tickets/undo-scan take. */
  id: z.number(),
  eventId: z.number(),
  userName: z.string(),
  guestIndex: z.number(),
  scanned: z.boolean(),
  scannedDate: z.string().nullable(),
  scannedByName: z.string().nullable(),
});
export type DoorTicket = z.infer<typeof doorTicketItem>;

/** POST tickets/check-in: a manual check-in from the door's search, by ticket id, through the scan path. */
export const checkInRequest = z.strictObject({
  eventId: idField,
  id: idField,
  clientNonce: z.string().trim().min(8).max(100).optional(),
  deviceId: z.string().trim().min(1).max(100).optional(),
});
export const checkInResponse = z.object({
  data: z.object({
    success: z.boolean(),
    message: z.string(),
    alreadyScanned: z.boolean(),
    ticket: doorTicketItem.optional(),
  }),
});
export type CheckInResponse = z.infer<typeof checkInResponse>;

/** GET tickets/door?eventId: the live count for admins and scanners. */
export const doorQuery = z.strictObject({ eventId: idParam, q: z.string().trim().max(100).optional() });
export const doorResponse = z.object({
  eventId: z.number(),
  eventName: z.string(),
  /** The school's IANA zone: the door's times are shown on its clock (issue 36). */
  timeZone: z.string(),
  /** People expected: every live ticket (attendees and guests). */
  expected: z.number(),
  admitted: z.number(),
  toCome: z.number(),
  guestsExpected: z.number(),
  guestsAdmitted: z.number(),
  /** The latest admissions, newest first. */
  recent: z.array(doorTicketItem),
  /** With q: tickets whose name matches, for a manual check-in by id (tickets/check-in). */
  matches: z.array(doorTicketItem),
  /** Tickets admitted again by a door that was offline: people let in twice, for the admin to see. */
  duplicates: z.array(
    z.object({
      ticket: doorTicketItem,
      deviceId: z.string().nullable(),
      byName: z.string().nullable(),
      /** When the offline door scanned it (its own clock) and when the server heard of it. */
      scannedAt: z.string().nullable(),
      receivedAt: z.string(),
    }),
  ),
});

/**
 * GET tickets/offline-list?eventId: what a door needs to keep admitting without a network: each live
 * ticket's SHA-256 (base64url) — never the code itself — with its name and whether it was scanned.
 */
export const offlineListQuery = z.strictObject({ eventId: idParam });
export const offlineListResponse = z.object({
  eventId: z.number(),
  eventName: z.string(),
  issuedAt: z.string(),
  validUntil: z.string(),
  /** The school's IANA zone, for the offline door's times. */
  timeZone: z.string(),
  /** The door's window (ISO instants; null while the event has no section): offline, it admits only inside. */
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  tickets: z.array(
    z.object({ hash: z.string(), userName: z.string(), guestIndex: z.number(), scanned: z.boolean() }),
  ),
});
export type OfflineList = z.infer<typeof offlineListResponse>;

/** POST tickets/sync-scans: the scans an offline door made, in the order it made them. */
export const syncScansRequest = z.strictObject({
  eventId: idField,
  deviceId: z.string().trim().min(1).max(100),
  scans: z
    .array(
      z.strictObject({
        ticketId: code,
        clientNonce: z.string().trim().min(8).max(100),
        scannedAt: z.iso.datetime(),
      }),
    )
    .min(1)
    .max(SYNC_BATCH_MAX),
});
export type SyncScansRequest = z.infer<typeof syncScansRequest>;
export const syncScansResponse = z.object({
  data: z.object({
    results: z.array(
      z.object({
        clientNonce: z.string(),
        ticketId: z.string(),
        /** admitted: first in; duplicate: another door had admitted it first; invalid: no live ticket. */
        outcome: z.enum(['admitted', 'duplicate', 'invalid']),
        message: z.string(),
      }),
    ),
  }),
});
export type SyncScansResponse = z.infer<typeof syncScansResponse>;
export type DoorState = z.infer<typeof doorResponse>;
