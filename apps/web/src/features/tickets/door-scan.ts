import { TICKET_TEXT, type Ticket } from '@parley/domain/tickets';
import { type DoorCheck, isNoAnswer, type OfflineDoor } from './offline-door';
import { afterScan, afterValidate, type ScanCalls, scanErrorPanel } from './scan-logic';

// One code at the door (spec §4/§5, decision 013): online, validate then scan once, as scan-logic says;
// without a network — the browser says so, or a request gets no answer — the phone's own list decides
// and the admission waits in its queue. What the door says is the same either way (spec §8 texts).

export type DoorLink = Pick<
  OfflineDoor,
  'isOffline' | 'noteNetwork' | 'checkOffline' | 'admitValidated' | 'noteScanned' | 'queuedCheck'
>;

const answered = (check: Omit<DoorCheck, 'admittedName'>): DoorCheck => ({
  ...check,
  admittedName: check.scanned?.userName ?? null,
});

/** Sends scan-ticket once with this nonce; no answer lets the person in offline with the same nonce. */
export async function scanAtDoor(
  calls: Pick<ScanCalls, 'scan'>,
  door: DoorLink,
  code: string,
  eventId: number,
  clientNonce: string,
  validated: Ticket | null,
): Promise<DoorCheck> {
  try {
    const answer = await calls.scan(code, eventId, clientNonce);
    door.noteNetwork(true);
    const panel = afterScan(answer.data, validated);
    if (answer.data.success || answer.data.alreadyScanned) await door.noteScanned(code);
    return answered({ panel, scanned: answer.data.success ? panel.ticket : null });
  } catch (error) {
    if (isNoAnswer(error)) {
      door.noteNetwork(false);
      if (validated) return door.admitValidated(code, clientNonce, validated);
    }
    return answered({
      panel: scanErrorPanel(error, { ticketId: code, clientNonce }, validated),
      scanned: null,
    });
  }
}

/** A scanned code: this door's own unsent admissions first, then the server, or the list offline. */
export async function checkAtDoor(
  calls: ScanCalls,
  door: DoorLink,
  code: string,
  eventId: number,
): Promise<DoorCheck> {
  // A ticket admitted here offline is not yet known to the server: it must not come in twice.
  const queued = await door.queuedCheck(code);
  if (queued) return queued;
  if (door.isOffline()) return door.checkOffline(code);
  let step: ReturnType<typeof afterValidate>;
  try {
    step = afterValidate((await calls.validate(code, eventId)).data, eventId);
    door.noteNetwork(true);
  } catch (error) {
    if (isNoAnswer(error)) {
      door.noteNetwork(false);
      return door.checkOffline(code);
    }
    return answered({ panel: scanErrorPanel(error, null), scanned: null });
  }
  if (step.kind === 'done') {
    if (step.panel.title === TICKET_TEXT.alreadyScannedTitle) await door.noteScanned(code);
    return answered({ panel: step.panel, scanned: null });
  }
  return scanAtDoor(calls, door, code, eventId, calls.newNonce(), step.ticket);
}
