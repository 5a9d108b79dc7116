import { CAMERA_IDEAL, CAMERA_MIN, CAMERA_RETRY_MS, TICKET_TEXT } from '@parley/domain/tickets';

// Opening the door camera (spec §8 "Camera", §9): the rear camera at 1280×720 if it can, at least
// 640×480; when the device cannot meet that, once more with basic settings after 1 s. Every step takes
// its browser APIs as arguments, so the error texts are tested without a camera.

/** Spec §9: rear camera, ideal 1280×720, minimum 640×480. */
export const CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: {
    facingMode: 'environment',
    width: { ideal: CAMERA_IDEAL.width, min: CAMERA_MIN.width },
    height: { ideal: CAMERA_IDEAL.height, min: CAMERA_MIN.height },
  },
};
export const BASIC_CONSTRAINTS: MediaStreamConstraints = { video: true };

/** A camera failure with the text to show (and "Try Again" under it). */
export class CameraError extends Error {
  override readonly name = 'CameraError';
}

// Older engines used other names for the same failures.
const NOT_ALLOWED = new Set(['NotAllowedError', 'PermissionDeniedError']);
const NOT_FOUND = new Set(['NotFoundError', 'DevicesNotFoundError']);
const NOT_READABLE = new Set(['NotReadableError', 'TrackStartError']);
const OVERCONSTRAINED = new Set(['OverconstrainedError', 'ConstraintNotSatisfiedError']);

export type CameraFailure = { text: string; retryBasic: boolean };

/** Spec §8 "Camera": the text for a getUserMedia failure, and whether to retry with basic settings. */
export function cameraFailure(error: unknown): CameraFailure {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  if (NOT_ALLOWED.has(name)) return { text: TICKET_TEXT.cameraNotAllowed, retryBasic: false };
  if (NOT_FOUND.has(name)) return { text: TICKET_TEXT.cameraNotFound, retryBasic: false };
  if (NOT_READABLE.has(name)) return { text: TICKET_TEXT.cameraNotReadable, retryBasic: false };
  if (OVERCONSTRAINED.has(name)) return { text: TICKET_TEXT.cameraOverconstrained, retryBasic: true };
  return { text: TICKET_TEXT.cameraOther, retryBasic: false };
}

export type CameraEnv = {
  mediaDevices: Pick<MediaDevices, 'getUserMedia'> | undefined;
  permissions: Pick<Permissions, 'query'> | undefined;
  sleep: (ms: number) => Promise<void>;
};

/** Whether the browser already says no (the Permissions API; browsers without it, or "camera", skip). */
async function permissionDenied(permissions: CameraEnv['permissions']): Promise<boolean> {
  if (!permissions) return false;
  try {
    const status = await permissions.query({ name: 'camera' as PermissionName });
    return status.state === 'denied';
  } catch {
    return false;
  }
}

/**
 * Opens the camera or throws a CameraError with the spec's text. `onNotice` shows a passing message
 * (the basic-settings retry) while the camera is still being asked.
 */
export async function openCamera(env: CameraEnv, onNotice: (text: string) => void): Promise<MediaStream> {
  if (!env.mediaDevices || typeof env.mediaDevices.getUserMedia !== 'function') {
    throw new CameraError(TICKET_TEXT.cameraUnsupported);
  }
  if (await permissionDenied(env.permissions)) throw new CameraError(TICKET_TEXT.cameraDeniedState);
  try {
    return await env.mediaDevices.getUserMedia(CAMERA_CONSTRAINTS);
  } catch (error) {
    const failure = cameraFailure(error);
    if (!failure.retryBasic) throw new CameraError(failure.text, { cause: error });
    onNotice(failure.text);
    await env.sleep(CAMERA_RETRY_MS);
    try {
      return await env.mediaDevices.getUserMedia(BASIC_CONSTRAINTS);
    } catch (basicError) {
      throw new CameraError(TICKET_TEXT.cameraBasicFailed, { cause: basicError });
    }
  }
}

/** Stops every track, so the camera light goes off. */
export function stopCamera(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}
