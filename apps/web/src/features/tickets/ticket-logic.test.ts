import { TICKET_TEXT } from '@parley/domain/tickets';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { scannedLine } from './components/ticket-card';
import { guest, ticket } from './test-fixtures';
import {
  missingInfo,
  orderedTickets,
  ticketHolders,
  ticketLoadErrorText,
  ticketLoadResult,
} from './ticket-logic';

describe('Your Ticket: inputs (spec §5)', () => {
  it('needs both the event and the user', () => {
    expect(missingInfo(9, 31)).toBe(false);
    expect(missingInfo(null, 31)).toBe(true);
    expect(missingInfo(9, null)).toBe(true);
    expect(missingInfo(0, 31)).toBe(true);
    expect(missingInfo(9, undefined)).toBe(true);
  });
});

describe('Your Ticket: the answer (spec §8 "Ticket load")', () => {
  it('success false → the server message, else "Failed to load ticket"', () => {
    expect(ticketLoadResult({ success: false, ticket: null, tickets: [], message: 'Nope.' })).toEqual({
      tickets: [],
      error: 'Nope.',
    });
    expect(ticketLoadResult({ success: false, ticket: null, tickets: [] }).error).toBe(
      'Failed to load ticket',
    );
  });

  it('success true with no ticket → "No ticket found for this event"', () => {
    expect(ticketLoadResult({ success: true, ticket: null, tickets: [] }).error).toBe(
      'No ticket found for this event',
    );
  });

  it('the attendee first, then the guests in order', () => {
    const own = ticket();
    const result = ticketLoadResult({ success: true, ticket: own, tickets: [guest(2), own, guest(1)] });
    expect(result.error).toBeNull();
    expect(result.tickets.map((item) => item.userName)).toEqual([
      'Jane Smith',
      'Guest 1 of Jane Smith',
      'Guest 2 of Jane Smith',
    ]);
  });

  it('an answer with only `ticket` still shows it; a ticket missing from `tickets` is added', () => {
    expect(orderedTickets({ success: true, ticket: ticket(), tickets: [] })).toHaveLength(1);
    expect(
      orderedTickets({ success: true, ticket: ticket(), tickets: [guest(1)] }).map((t) => t.guestIndex),
    ).toEqual([0, 1]);
  });

  it('request errors: 403, 404, else the server message or "Failed to load your ticket"', () => {
    expect(ticketLoadErrorText(new ApiError(403, 'x', { message: 'Server says no' }))).toBe(
      'You do not have permission to view tickets for this event',
    );
    expect(ticketLoadErrorText(new ApiError(404, 'x', { message: 'Event not found.' }))).toBe(
      'Event not found or tickets not enabled',
    );
    expect(
      ticketLoadErrorText(new ApiError(409, 'x', { message: 'This event does not issue tickets.' })),
    ).toBe('This event does not issue tickets.');
    expect(ticketLoadErrorText(new ApiError(0, 'No response from the server'))).toBe(TICKET_TEXT.loadOther);
    expect(ticketLoadErrorText(new Error('boom'))).toBe('Failed to load your ticket');
  });
});

describe('Your Ticket: "Scanned: …"', () => {
  it('shows the local date and time only when scanned with a date', () => {
    const when = '2026-07-03T18:05:00.000Z';
    expect(scannedLine({ scanned: true, scannedDate: when, timeZone: 'Europe/London' })).toBe(
      'Scanned: Fri 3 Jul 2026, 19:05',
    );
    expect(scannedLine({ scanned: true, scannedDate: null, timeZone: 'Europe/London' })).toBeNull();
    expect(scannedLine({ scanned: false, scannedDate: when, timeZone: 'Europe/London' })).toBeNull();
  });
});

describe('whose tickets a parent shows', () => {
  const self = { userId: 40, name: 'Pat Smith' };
  const booking = (over: {
    studentId?: number | null;
    studentName?: string | null;
    parentId?: number | null;
    status?: 'booked' | 'cancelled';
  }) => ({
    studentId: null,
    studentName: null,
    parentId: 40,
    parentName: 'Pat Smith',
    status: 'booked' as const,
    ...over,
  });

  it('each child booked once, in booking order', () => {
    expect(
      ticketHolders(
        [
          booking({ studentId: 31, studentName: 'Jane Smith' }),
          booking({ studentId: 32, studentName: 'Tom Smith' }),
          booking({ studentId: 31, studentName: 'Jane Smith' }),
        ],
        self,
      ),
    ).toEqual([
      { userId: 31, name: 'Jane Smith' },
      { userId: 32, name: 'Tom Smith' },
    ]);
  });

  it('the parent when they booked for themselves; cancelled bookings hold no ticket', () => {
    expect(ticketHolders([booking({})], self)).toEqual([self]);
    expect(
      ticketHolders([booking({ studentId: 31, studentName: 'Jane', status: 'cancelled' })], self),
    ).toEqual([]);
  });
});
