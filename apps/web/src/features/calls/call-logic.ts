import type { LiveClientMessage } from '@parley/domain/live-schemas';

// Pure rules of the call page (issue 41): the countdown, who makes the offer, and the page's address.

/** "7:05" for 425 s; never below 0:00. */
export function clockText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Of two people in a call, the one with the smaller id offers: both sides agree without asking. */
export const makesOffer = (me: number, them: number): boolean => me < them;

/** The offset to add to this device's clock to read the server's (the countdown runs on the server's). */
export const clockSkew = (serverNow: string, deviceNow = Date.now()): number =>
  new Date(serverNow).getTime() - deviceNow;

/** A signal's data as the live channel carries it (decision 040). */
export type CallSignalData = Extract<LiveClientMessage, { type: 'signal' }>['data'];

/** A relayed signal's data, read by hand (no zod in the page): null when it is not for `me`. */
export function signalFor(data: unknown, me: number): CallSignalData | null {
  if (typeof data !== 'object' || data === null) return null;
  const signal = data as CallSignalData;
  if (signal.to !== undefined && signal.to !== me) return null;
  return signal;
}
