import type { EventTicketResponse, Ticket } from '@parley/domain/tickets';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { queryClient } from '../../lib/query-client';
import { type Handler, json, type RecordedRequest, stubFetch } from '../../test-support/screen-fixtures';
import { TicketDialog } from './components/ticket-dialog';
import { guest, ticket } from './test-fixtures';

// "Your Ticket" (spec §2 Ticket display dialog, §4, §5, §8 "Ticket load") with the real API client; only
// fetch is faked.

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const answer = (data: Partial<EventTicketResponse['data']>) => () =>
  json(200, { data: { success: true, ticket: null, tickets: [], ...data } });
const withTicket = (own: Ticket, guests: Ticket[] = []) => answer({ ticket: own, tickets: [own, ...guests] });
const ticketCalls = () =>
  requests.filter((request) => request.path.startsWith('/api/tickets/get-event-ticket'));

/** The dialog behind a button, as Home opens it. */
function Harness({
  eventId = 9,
  userId = 31 as number | null,
}: {
  eventId?: number;
  userId?: number | null;
}) {
  const [open, setOpen] = useState(true);
  return (
    <AppProviders>
      <button type="button" onClick={() => setOpen(true)}>
        Reopen
      </button>
      <TicketDialog
        open={open}
        eventId={eventId}
        userId={userId}
        eventName="Summer concert"
        userName="Jane Smith"
        onClose={() => setOpen(false)}
      />
    </AppProviders>
  );
}

const dialog = () => screen.getByRole('dialog', { name: 'Your Ticket' });

beforeEach(() => {
  queryClient.clear();
  requests = [];
  routes = {};
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Your Ticket: loading and the ticket (spec §2)', () => {
  it('says "Loading your ticket...", then shows the ticket with its QR, "Ready to Scan" and the notes', async () => {
    let release: () => void = () => {};
    routes['/api/tickets/get-event-ticket'] = () =>
      new Promise((resolve) => {
        release = () => resolve(withTicket(ticket())());
      });
    render(<Harness />);
    expect(await within(dialog()).findByText('Loading your ticket...')).toBeTruthy();
    expect(ticketCalls().map((request) => request.path)).toEqual([
      '/api/tickets/get-event-ticket?eventId=9&userId=31',
    ]);
    release();

    const card = await within(dialog()).findByTestId('ticket');
    expect(within(card).getByRole('heading', { name: 'Summer concert' })).toBeTruthy();
    expect(within(card).getByText('Jane Smith')).toBeTruthy();
    const qr = within(card).getByRole('img', { name: 'QR code of the ticket for Jane Smith' });
    expect(qr.getAttribute('width')).toBe('175');
    expect(qr.getAttribute('height')).toBe('175');
    expect(qr.getAttribute('data-qr-text')).toBe('http://localhost:3000/t/AbCdEfGhIjKlMnOpQrStUv');
    expect(qr.querySelector('rect')?.getAttribute('fill')).toBe('#ffffff');
    expect(qr.querySelector('path')?.getAttribute('fill')).toBe('#000000');
    const chip = within(card).getByText('Ready to Scan').closest('.MuiChip-root');
    expect(chip?.className).toMatch(/MuiChip-colorWarning/);
    expect(chip?.className).toMatch(/MuiChip-outlined/);
    expect(within(card).queryByText(/^Scanned:/)).toBeNull();
    expect(within(card).getByText('Show this QR code to event staff for scanning.')).toBeTruthy();
    expect(within(card).getByText('Keep this ticket until after the event.')).toBeTruthy();
    expect(screen.queryByText(/Ticket 1 of/)).toBeNull();
  });

  it('a scanned ticket: the "Scanned" chip (success, filled) and "Scanned: {local date time}"', async () => {
    const when = '2026-07-03T18:05:00.000Z';
    routes['/api/tickets/get-event-ticket'] = withTicket(ticket({ scanned: true, scannedDate: when }));
    render(<Harness />);
    const chip = (await within(dialog()).findByText('Scanned')).closest('.MuiChip-root');
    expect(chip?.className).toMatch(/MuiChip-colorSuccess/);
    expect(chip?.className).toMatch(/MuiChip-filled/);
    expect(within(dialog()).getByText('Scanned: Fri 3 Jul 2026, 19:05')).toBeTruthy();
  });

  it('guests: the attendee first, then "Guest 1 of …", each with its own QR, one at a time', async () => {
    routes['/api/tickets/get-event-ticket'] = withTicket(ticket(), [guest(2), guest(1)]);
    render(<Harness />);
    expect(await within(dialog()).findByText('Ticket 1 of 3')).toBeTruthy();
    expect(within(dialog()).getAllByTestId('ticket')).toHaveLength(3);
    expect(within(dialog()).getAllByRole('img')).toHaveLength(1); // the others are hidden until printed
    expect(within(dialog()).getByRole('img', { name: 'QR code of the ticket for Jane Smith' })).toBeTruthy();
    const previous = within(dialog()).getByRole('button', { name: 'Previous ticket' }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Next ticket' }));
    expect(within(dialog()).getByText('Ticket 2 of 3')).toBeTruthy();
    const guestQr = within(dialog()).getByRole('img', {
      name: 'QR code of the ticket for Guest 1 of Jane Smith',
    });
    expect(guestQr.getAttribute('data-qr-text')).toBe('http://localhost:3000/t/Guest1');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Next ticket' }));
    expect(within(dialog()).getByText('Guest 2 of Jane Smith')).toBeTruthy();
    expect(
      (within(dialog()).getByRole('button', { name: 'Next ticket' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('Print prints', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    routes['/api/tickets/get-event-ticket'] = withTicket(ticket());
    render(<Harness />);
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});

describe('Your Ticket: persistent; closing resets (spec §2, §4)', () => {
  it('Escape does not close it; the close button does; reopening loads afresh', async () => {
    routes['/api/tickets/get-event-ticket'] = withTicket(ticket());
    render(<Harness />);
    await within(dialog()).findByTestId('ticket');
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Your Ticket' })).toBeTruthy();

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your Ticket' })).toBeNull());
    routes['/api/tickets/get-event-ticket'] = answer({ success: false, message: 'Tickets are closed.' });
    fireEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(await within(dialog()).findByText('Tickets are closed.')).toBeTruthy();
    expect(within(dialog()).queryByTestId('ticket')).toBeNull();
    expect(ticketCalls()).toHaveLength(2);
  });
});

describe('Your Ticket: errors (spec §5, §8 "Ticket load")', () => {
  it('"Missing event or user information" without asking the server', async () => {
    render(<Harness userId={null} />);
    expect(await within(dialog()).findByText('Missing event or user information')).toBeTruthy();
    expect(ticketCalls()).toHaveLength(0);
  });

  const cases: Array<[string, Handler, string]> = [
    [
      'success false with a message',
      answer({ success: false, message: 'Not yet issued.' }),
      'Not yet issued.',
    ],
    ['success false without one', answer({ success: false }), 'Failed to load ticket'],
    ['success true, no ticket', answer({}), 'No ticket found for this event'],
    ['403', () => json(403, { message: 'No.' }), 'You do not have permission to view tickets for this event'],
    ['404', () => json(404, { message: 'Event not found.' }), 'Event not found or tickets not enabled'],
    [
      '409 with a message',
      () => json(409, { message: 'This event does not issue tickets.' }),
      'This event does not issue tickets.',
    ],
    ['a failure without a message', () => json(500, {}), 'Failed to load your ticket'],
  ];

  for (const [name, handler, text] of cases) {
    it(`${name} → "${text}"`, async () => {
      routes['/api/tickets/get-event-ticket'] = handler;
      render(<Harness />);
      expect(await within(dialog()).findByText(text)).toBeTruthy();
      expect(within(dialog()).getByRole('button', { name: 'Try Again' })).toBeTruthy();
    });
  }

  it('"Try Again" loads again', async () => {
    routes['/api/tickets/get-event-ticket'] = () => json(500, {});
    render(<Harness />);
    const again = await within(dialog()).findByRole('button', { name: 'Try Again' });
    routes['/api/tickets/get-event-ticket'] = withTicket(ticket());
    fireEvent.click(again);
    expect(await within(dialog()).findByText('Ready to Scan')).toBeTruthy();
    expect(ticketCalls()).toHaveLength(2);
  });
});
