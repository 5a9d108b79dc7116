import type { ScanTicketResponse, ValidateTicketResponse } from '@parley/domain/tickets';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { checkAtDoor, type DoorLink, scanAtDoor } from './door-scan';
import type { DoorCheck } from './offline-door';
import type { ScanCalls } from './scan-logic';
import { ticket } from './test-fixtures';

// One code at the door: online as spec §4/§5 say, offline by the phone's list (decision 013).

const CODE = 'AbCdEfGhIjKlMnOpQrStUv';
const EVENT = 9;
const scanned = ticket({
  scanned: true,
  scannedDate: '2026-07-03T18:05:00.000Z',
  scannedByName: 'Ada Lovelace',
});
const offlineAnswer = (title: string): DoorCheck => ({
  panel: { outcome: 'success', title, message: '', detail: null, ticket: null, retry: null },
  scanned: null,
  admittedName: 'Jane Smith',
});

function fakes(offline = false) {
  const calls = {
    validate: vi.fn(
      async (): Promise<ValidateTicketResponse> => ({
        data: { valid: true, message: 'Valid ticket.', ticket: ticket() },
      }),
    ),
    scan: vi.fn(
      async (): Promise<ScanTicketResponse> => ({
        data: {
          success: true,
          message: 'Ticket Scanned Successfully!',
          alreadyScanned: false,
          ticket: scanned,
        },
      }),
    ),
    newNonce: vi.fn(() => 'nonce-0001'),
  } satisfies ScanCalls;
  const door = {
    isOffline: vi.fn(() => offline),
    noteNetwork: vi.fn(),
    checkOffline: vi.fn(async () => offlineAnswer('offline decision')),
    admitValidated: vi.fn(async () => offlineAnswer('admitted after no answer')),
    noteScanned: vi.fn(async () => {}),
    queuedCheck: vi.fn(async (): Promise<DoorCheck | null> => null),
  } satisfies DoorLink;
  return { calls, door };
}

describe('online', () => {
  it('validates, scans once, marks the ticket in the kept list and names who came in', async () => {
    const { calls, door } = fakes();
    const result = await checkAtDoor(calls, door, CODE, EVENT);
    expect(result.panel.title).toBe('Ticket Scanned Successfully!');
    expect(result).toMatchObject({ scanned, admittedName: 'Jane Smith' });
    expect(calls.scan).toHaveBeenCalledWith(CODE, EVENT, 'nonce-0001');
    expect(door.noteScanned).toHaveBeenCalledWith(CODE);
    expect(door.noteNetwork).toHaveBeenCalledWith(true);
    expect(door.checkOffline).not.toHaveBeenCalled();
  });

  it('"Already Scanned" from the server is marked too; "Invalid Ticket" is not', async () => {
    const { calls, door } = fakes();
    calls.validate.mockResolvedValueOnce({
      data: { valid: true, message: 'Already scanned …', ticket: scanned },
    });
    expect((await checkAtDoor(calls, door, CODE, EVENT)).panel.title).toBe('Already Scanned');
    expect(door.noteScanned).toHaveBeenCalledTimes(1);
    calls.validate.mockResolvedValueOnce({
      data: { valid: false, message: 'This code is not a ticket of this school.' },
    });
    const invalid = await checkAtDoor(calls, door, 'Forged', EVENT);
    expect(invalid.panel.title).toBe('Invalid Ticket');
    expect(invalid.admittedName).toBeNull();
    expect(door.noteScanned).toHaveBeenCalledTimes(1);
    expect(calls.scan).not.toHaveBeenCalled();
  });

  it('a ticket this door admitted offline and has not sent is "Already Scanned" without asking the server', async () => {
    const { calls, door } = fakes();
    door.queuedCheck.mockResolvedValueOnce(offlineAnswer('Already Scanned'));
    expect((await checkAtDoor(calls, door, CODE, EVENT)).panel.title).toBe('Already Scanned');
    expect(calls.validate).not.toHaveBeenCalled();
  });

  it('an HTTP error is the spec’s "Error", not offline', async () => {
    const { calls, door } = fakes();
    calls.scan.mockRejectedValueOnce(new ApiError(500, 'Internal', { message: 'Something failed.' }));
    const result = await checkAtDoor(calls, door, CODE, EVENT);
    expect(result.panel).toMatchObject({
      title: 'Error',
      message: 'Something failed.',
      retry: { ticketId: CODE, clientNonce: 'nonce-0001' },
    });
    expect(door.admitValidated).not.toHaveBeenCalled();
  });
});

describe('without a network', () => {
  it('offline: the phone’s list decides and nothing is sent', async () => {
    const { calls, door } = fakes(true);
    expect((await checkAtDoor(calls, door, CODE, EVENT)).panel.title).toBe('offline decision');
    expect(door.checkOffline).toHaveBeenCalledWith(CODE);
    expect(calls.validate).not.toHaveBeenCalled();
  });

  it('validation without an answer: offline from now on, and the list decides', async () => {
    const { calls, door } = fakes();
    calls.validate.mockRejectedValueOnce(new ApiError(0, 'No response from the server'));
    expect((await checkAtDoor(calls, door, CODE, EVENT)).panel.title).toBe('offline decision');
    expect(door.noteNetwork).toHaveBeenCalledWith(false);
  });

  it('a scan without an answer: admitted with the same nonce, waiting to be sent', async () => {
    const { calls, door } = fakes();
    calls.scan.mockRejectedValueOnce(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
    expect((await checkAtDoor(calls, door, CODE, EVENT)).panel.title).toBe('admitted after no answer');
    expect(door.admitValidated).toHaveBeenCalledWith(CODE, 'nonce-0001', ticket());
  });

  it('"Try Again" after an error resends the same nonce, and goes offline if that gets no answer', async () => {
    const { calls, door } = fakes();
    calls.scan.mockRejectedValueOnce(new ApiError(0, 'No response from the server'));
    const result = await scanAtDoor(calls, door, CODE, EVENT, 'the-first-nonce', ticket());
    expect(result.panel.title).toBe('admitted after no answer');
    expect(calls.scan).toHaveBeenCalledWith(CODE, EVENT, 'the-first-nonce');
    expect(door.admitValidated).toHaveBeenCalledWith(CODE, 'the-first-nonce', ticket());
  });
});
