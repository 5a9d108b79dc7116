// Spec §5: "Scanning needs a mobile or touch device with a camera." Without one, "Scan Tickets" opens
// "Mobile Device Required" instead of the scanner.

export type DeviceTraits = {
  /** navigator.mediaDevices exists (it does not on an insecure origin or an old browser). */
  hasMediaDevices: boolean;
  maxTouchPoints: number;
  /** matchMedia('(pointer: coarse)'): a finger is the main pointer. */
  coarsePointer: boolean;
};

/** A device can scan when it has the camera API and a touch screen. */
export const canScanOnDevice = (device: DeviceTraits): boolean =>
  device.hasMediaDevices && (device.maxTouchPoints > 0 || device.coarsePointer);

/** This browser's traits. */
export function deviceTraits(): DeviceTraits {
  const nav = globalThis.navigator as Navigator | undefined;
  let coarsePointer = false;
  try {
    coarsePointer = globalThis.matchMedia?.('(pointer: coarse)').matches ?? false;
  } catch {
    coarsePointer = false;
  }
  return {
    hasMediaDevices: Boolean(nav?.mediaDevices),
    maxTouchPoints: nav?.maxTouchPoints ?? 0,
    coarsePointer,
  };
}
