import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import {
  admit,
  afterScan,
  afterValidate,
  checkCode,
  resultLines,
  type ScanCalls,
  scanErrorPanel,
  scannedSnackbar,
} from './scan-logic';
import { ticket } from './test-fixtures';

const EVENT = 9;
const scannedTicket = ticket({
  scanned: true,
  scannedDate: '2026-07-03T18:05:00.000Z',
  scannedBy: 7,
  scannedByName: 'Ada Lovelace',
});

describe('validation response (spec §5)', () => {
  it('valid false → "Invalid Ticket" with the server message', () => {
    const step = afterValidate({ valid: false, message: 'This code is not a ticket of this school.' }, EVENT);
    expect(step).toMatchObject({
      kind: 'done',
      panel: {
        outcome: 'error',
        title: 'Invalid Ticket',
        message: 'This code is not a ticket of this school.',
        ticket: null,
      },
    });
  });

  it('another event’s ticket is invalid even when it was scanned there', () => {
    const other = ticket({ ...scannedTicket, eventId: 10, eventName: 'Prom' });
    const step = afterValidate(
      { valid: false, message: 'This ticket is for another event: Prom.', ticket: other },
      EVENT,
    );
    expect(step.kind === 'done' && step.panel.title).toBe('Invalid Ticket');
  });

  it('already scanned → "Already Scanned", "This ticket has already been scanned." and when/by whom', () => {
    for (const valid of [true, false]) {
      const step = afterValidate(
        { valid, message: 'Already scanned 3 Jul 18:05 by Ada Lovelace.', ticket: scannedTicket },
        EVENT,
      );
      expect(step).toMatchObject({
        kind: 'done',
        panel: {
          title: 'Already Scanned',
          message: 'This ticket has already been scanned.',
          detail: 'Already scanned 3 Jul 18:05 by Ada Lovelace.',
          ticket: scannedTicket,
        },
      });
    }
    const plain = afterValidate({ valid: true, message: 'Valid ticket.', ticket: scannedTicket }, EVENT);
    expect(plain.kind === 'done' && plain.panel.detail).toBeNull();
  });

  it('valid and not scanned → scan it', () => {
    expect(afterValidate({ valid: true, message: 'Valid ticket.', ticket: ticket() }, EVENT)).toEqual({
      kind: 'scan',
      ticket: ticket(),
    });
  });
});

describe('scan results (spec §8)', () => {
  it('success → "Ticket Scanned Successfully!" and the snackbar for the name', () => {
    const panel = afterScan({
      success: true,
      message: 'Welcome!',
      alreadyScanned: false,
      ticket: scannedTicket,
    });
    expect(panel).toMatchObject({
      outcome: 'success',
      title: 'Ticket Scanned Successfully!',
      message: 'Welcome!',
    });
    expect(scannedSnackbar(panel.ticket)).toBe('Ticket scanned successfully for Jane Smith');
    // The server's own success text is the title: not said twice.
    expect(
      afterScan({ success: true, message: 'Ticket Scanned Successfully!', alreadyScanned: false }).message,
    ).toBe('');
    expect(scannedSnackbar(null)).toBeNull();
  });

  it('success false → "Scan Failed" with the server message; alreadyScanned → "Already Scanned"', () => {
    expect(
      afterScan({ success: false, message: 'This ticket was cancelled.', alreadyScanned: false }),
    ).toMatchObject({
      outcome: 'error',
      title: 'Scan Failed',
      message: 'This ticket was cancelled.',
    });
    expect(
      afterScan({ success: false, message: 'Already scanned by Ada.', alreadyScanned: true }, ticket()),
    ).toMatchObject({
      title: 'Already Scanned',
      message: 'This ticket has already been scanned.',
      detail: 'Already scanned by Ada.',
      ticket: ticket(),
    });
  });

  it('a request exception → "Error" with the server message or the fixed text; retry only without an answer', () => {
    const attempt = { ticketId: 'abc', clientNonce: 'nonce-1234' };
    expect(scanErrorPanel(new ApiError(0, 'No response from the server'), attempt)).toMatchObject({
      title: 'Error',
      message: 'Failed to scan ticket. Please try again.',
      retry: attempt,
    });
    expect(
      scanErrorPanel(new ApiError(503, 'x', { message: 'Busy, try again.', retry: true }), attempt),
    ).toMatchObject({
      message: 'Busy, try again.',
      retry: attempt,
    });
    expect(
      scanErrorPanel(
        new ApiError(403, 'x', { message: 'You are not allowed to scan tickets for this event.' }),
        attempt,
      ),
    ).toMatchObject({ message: 'You are not allowed to scan tickets for this event.', retry: null });
  });

  it('the panel lines: Name, Email, Event, and Scanned when scanned', () => {
    expect(resultLines(ticket()).map((line) => line.label)).toEqual(['Name', 'Email', 'Event']);
    expect(resultLines(scannedTicket).at(-1)).toEqual({
      label: 'Scanned',
      value: `Fri 3 Jul 2026, 19:05 (Ada Lovelace)`,
    });
  });
});

describe('checking one code (spec §4: scan only a valid, unscanned ticket)', () => {
  const calls = (over: Partial<ScanCalls> = {}): ScanCalls => ({
    validate: vi.fn(async () => ({ data: { valid: true, message: 'Valid ticket.', ticket: ticket() } })),
    scan: vi.fn(async () => ({
      data: { success: true, message: 'Admitted.', alreadyScanned: false, ticket: scannedTicket },
    })),
    newNonce: () => 'nonce-0001',
    ...over,
  });

  it('validates with the event, then scans once with a fresh nonce', async () => {
    const api = calls();
    const result = await checkCode(api, 'AbCdEfGhIjKlMnOpQrStUv', EVENT);
    expect(api.validate).toHaveBeenCalledWith('AbCdEfGhIjKlMnOpQrStUv', EVENT);
    expect(api.scan).toHaveBeenCalledTimes(1);
    expect(api.scan).toHaveBeenCalledWith('AbCdEfGhIjKlMnOpQrStUv', EVENT, 'nonce-0001');
    expect(result.panel.title).toBe('Ticket Scanned Successfully!');
    expect(result.scanned).toEqual(scannedTicket);
  });

  it('does not scan an invalid or already scanned ticket', async () => {
    const invalid = calls({ validate: vi.fn(async () => ({ data: { valid: false, message: 'Unknown.' } })) });
    expect((await checkCode(invalid, 'x', EVENT)).panel.title).toBe('Invalid Ticket');
    expect(invalid.scan).not.toHaveBeenCalled();
    const used = calls({
      validate: vi.fn(async () => ({
        data: { valid: true, message: 'Valid ticket.', ticket: scannedTicket },
      })),
    });
    const result = await checkCode(used, 'x', EVENT);
    expect(result).toMatchObject({ panel: { title: 'Already Scanned' }, scanned: null });
    expect(used.scan).not.toHaveBeenCalled();
  });

  it('a failed validate → "Error"; a failed scan keeps its nonce for "Try Again"', async () => {
    const down = calls({ validate: vi.fn(async () => Promise.reject(new ApiError(0, 'offline'))) });
    expect((await checkCode(down, 'x', EVENT)).panel).toMatchObject({ title: 'Error', retry: null });

    const scan = vi
      .fn<ScanCalls['scan']>()
      .mockRejectedValueOnce(new ApiError(0, 'offline'))
      .mockResolvedValueOnce({
        data: { success: true, message: 'Admitted.', alreadyScanned: false, ticket: scannedTicket },
      });
    const flaky = calls({ scan });
    const first = await checkCode(flaky, 'code-1', EVENT);
    expect(first.panel).toMatchObject({
      title: 'Error',
      message: 'Failed to scan ticket. Please try again.',
      retry: { ticketId: 'code-1', clientNonce: 'nonce-0001' },
    });
    const again = await admit(flaky, 'code-1', EVENT, 'nonce-0001', first.panel.ticket);
    expect(scan).toHaveBeenLastCalledWith('code-1', EVENT, 'nonce-0001');
    expect(again.panel.title).toBe('Ticket Scanned Successfully!');
  });
});
