import type { Ticket, ValidateTicketResponse } from '@parley/domain/tickets';
import { ApiError } from '../../lib/api-client';
import { afterValidate, type ScanPanel, scanErrorPanel } from './scan-logic';

// /t/{code}, the address a ticket's QR carries (decision 013): what it shows, pure so it is tested
// directly. Anyone sees that it is a ticket to show at the door; a signed-in admin or scanner of the
// ticket's event sees it validated and may admit it.

export type LinkView =
  | { kind: 'public' }
  | { kind: 'checking' }
  | { kind: 'admit'; ticket: Ticket; message: string }
  | { kind: 'result'; panel: ScanPanel };

/** Answers that mean "not yours to check": the ticket page for anyone. */
const NOT_A_SCANNER = new Set([401, 403, 404]);

export function linkView(input: {
  signedIn: boolean;
  data: ValidateTicketResponse['data'] | undefined;
  error: unknown;
}): LinkView {
  if (!input.signedIn) return { kind: 'public' };
  if (input.error) {
    if (input.error instanceof ApiError && NOT_A_SCANNER.has(input.error.status)) return { kind: 'public' };
    return { kind: 'result', panel: scanErrorPanel(input.error, null) };
  }
  if (!input.data) return { kind: 'checking' };
  // Validated for the ticket's own event: spec §5 decides between Invalid, Already Scanned and a scan.
  const step = afterValidate(input.data, input.data.ticket?.eventId ?? 0);
  if (step.kind === 'done') return { kind: 'result', panel: step.panel };
  return { kind: 'admit', ticket: step.ticket, message: input.data.message };
}
