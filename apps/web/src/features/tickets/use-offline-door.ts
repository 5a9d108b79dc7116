import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../lib/session';
import { readJson, writeJson } from '../../lib/storage';
import { offlineList, randomNonce, scannerDeviceId, syncScans } from './api';
import { type DoorSnapshot, OfflineDoor } from './offline-door';
import { doorStorageKey, ticketHash } from './offline-logic';

// The offline door of an event with the browser's own APIs: local storage, the API, navigator.onLine and
// its online/offline events, the clock. One store per scanner and event, shared by the scanner dialog
// and the door page behind it, so they show the same queue and send it once.

const doors = new Map<string, OfflineDoor>();

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** The store of this scanner's door at this event (made on first use). */
export function offlineDoor(userId: number, eventId: number): OfflineDoor {
  const key = doorStorageKey(userId, eventId);
  let door = doors.get(key);
  if (!door) {
    door = new OfflineDoor({
      eventId,
      read: () => readJson(key),
      write: (data) => writeJson(key, data),
      fetchList: () => offlineList(eventId),
      sendScans: syncScans,
      deviceId: scannerDeviceId,
      newNonce: randomNonce,
      hash: (code) => ticketHash(code),
      now: () => new Date(),
      browserOnline,
      onNetworkChange: (listener) => {
        window.addEventListener('online', listener);
        window.addEventListener('offline', listener);
        return () => {
          window.removeEventListener('online', listener);
          window.removeEventListener('offline', listener);
        };
      },
      every: (ms, tick) => {
        const timer = setInterval(tick, ms);
        return () => clearInterval(timer);
      },
    });
    doors.set(key, door);
  }
  return door;
}

/** Forgets every store (tests start clean). */
export function resetOfflineDoors(): void {
  doors.clear();
}

const noStore = {
  subscribe: () => () => {},
  getSnapshot: () => null,
};

/**
 * The signed-in scanner's door at this event while the screen is open: `scanning` (the scanner dialog)
 * keeps the list fresh too. Null without a signed-in user.
 */
export function useOfflineDoor(
  eventId: number,
  scanning: boolean,
): { door: OfflineDoor | null; state: DoorSnapshot | null } {
  const { user } = useSession();
  const door = user && eventId > 0 ? offlineDoor(user.id, eventId) : null;
  const source = door ?? noStore;
  const state = useSyncExternalStore<DoorSnapshot | null>(source.subscribe, source.getSnapshot);
  useEffect(() => (door ? door.activate(scanning) : undefined), [door, scanning]);
  return { door, state };
}
