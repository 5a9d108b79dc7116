import type { DoorTicket, Ticket } from '@parley/domain/tickets';

// Tickets as the server sends them, for the tickets tests.

export function ticket(over: Partial<Ticket> = {}): Ticket {
  return {
    ticketId: 'AbCdEfGhIjKlMnOpQrStUv',
    eventId: 9,
    userId: 31,
    scannedBy: null,
    scannedByName: null,
    qrCodeUrl: 'http://localhost:3000/t/AbCdEfGhIjKlMnOpQrStUv',
    scanned: false,
    scannedDate: null,
    userName: 'Jane Smith',
    userEmail: 'jane@hill.test',
    eventName: 'Summer concert',
    guestIndex: 0,
    eventDateLabel: 'Fri 3 Jul 2026, 18:00',
    location: 'Main hall',
    timeZone: 'Europe/London',
    ...over,
  };
}

export const guest = (index: number, over: Partial<Ticket> = {}): Ticket =>
  ticket({
    ticketId: `Guest${index}TicketCodeXXXXX`.slice(0, 22),
    qrCodeUrl: `http://localhost:3000/t/Guest${index}`,
    userName: `Guest ${index} of Jane Smith`,
    guestIndex: index,
    ...over,
  });

/** A ticket as the door's lists show it: an id, never a code or an email (issue 35). */
export function doorTicket(over: Partial<DoorTicket> = {}): DoorTicket {
  return {
    id: 501,
    eventId: 9,
    userName: 'Jane Smith',
    guestIndex: 0,
    scanned: false,
    scannedDate: null,
    scannedByName: null,
    ...over,
  };
}
