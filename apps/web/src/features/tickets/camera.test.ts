import { describe, expect, it, vi } from 'vitest';
import { BASIC_CONSTRAINTS, CAMERA_CONSTRAINTS, type CameraEnv, cameraFailure, openCamera } from './camera';

const named = (name: string) => Object.assign(new Error(name), { name });
const fakeStream = { getTracks: () => [] } as unknown as MediaStream;

type Setup = CameraEnv & { getUserMedia: MediaDevices['getUserMedia'] };

function env(
  over: {
    getUserMedia?: MediaDevices['getUserMedia'];
    noMediaDevices?: boolean;
    permissions?: CameraEnv['permissions'];
  } = {},
): Setup {
  const getUserMedia = over.getUserMedia ?? vi.fn(async () => fakeStream);
  return {
    mediaDevices: over.noMediaDevices ? undefined : { getUserMedia },
    permissions: over.permissions,
    sleep: vi.fn(async () => undefined),
    getUserMedia,
  };
}

describe('camera errors (spec §8 "Camera")', () => {
  it('maps each getUserMedia failure to its text', () => {
    expect(cameraFailure(named('NotAllowedError')).text).toBe(
      'Camera permission denied. Please: 1. Allow camera access when prompted 2. Check device settings if needed 3. Reload the app and try again',
    );
    expect(cameraFailure(named('NotFoundError')).text).toBe(
      'No camera found on this device. QR scanning requires a camera.',
    );
    expect(cameraFailure(named('NotReadableError')).text).toBe(
      'Camera is being used by another application. Please close other camera apps and try again.',
    );
    expect(cameraFailure(named('OverconstrainedError'))).toEqual({
      text: 'Camera requirements not met. Trying with basic settings...',
      retryBasic: true,
    });
    expect(cameraFailure(named('TypeError')).text).toBe(
      'Failed to access camera. Please check permissions and try again.',
    );
    expect(cameraFailure('weird').retryBasic).toBe(false);
  });
});

describe('opening the camera (spec §8, §9)', () => {
  it('asks for the rear camera at 1280×720, at least 640×480', async () => {
    const setup = env();
    await expect(openCamera(setup, vi.fn())).resolves.toBe(fakeStream);
    expect(setup.getUserMedia).toHaveBeenCalledWith(CAMERA_CONSTRAINTS);
    expect(CAMERA_CONSTRAINTS.video).toEqual({
      facingMode: 'environment',
      width: { ideal: 1280, min: 640 },
      height: { ideal: 720, min: 480 },
    });
  });

  it('no media devices → "Camera not supported by this browser"', async () => {
    await expect(openCamera(env({ noMediaDevices: true }), vi.fn())).rejects.toThrow(
      'Camera not supported by this browser',
    );
  });

  it('a denied permission state → the "Camera access denied…" text, without asking', async () => {
    const setup = env({
      permissions: { query: vi.fn(async () => ({ state: 'denied' }) as PermissionStatus) },
    });
    await expect(openCamera(setup, vi.fn())).rejects.toThrow(
      'Camera access denied. Please enable camera permissions in your device settings and reload the app.',
    );
    expect(setup.getUserMedia).not.toHaveBeenCalled();
  });

  it('a Permissions API that does not know "camera" is skipped', async () => {
    const setup = env({ permissions: { query: vi.fn(async () => Promise.reject(new TypeError('camera'))) } });
    await expect(openCamera(setup, vi.fn())).resolves.toBe(fakeStream);
  });

  it('NotAllowedError → its text, no retry', async () => {
    const setup = env({ getUserMedia: vi.fn(async () => Promise.reject(named('NotAllowedError'))) });
    await expect(openCamera(setup, vi.fn())).rejects.toThrow(/^Camera permission denied/);
    expect(setup.getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('OverconstrainedError → the notice, then basic settings after 1000 ms', async () => {
    const getUserMedia = vi
      .fn<MediaDevices['getUserMedia']>()
      .mockRejectedValueOnce(named('OverconstrainedError'))
      .mockResolvedValueOnce(fakeStream);
    const setup = env({ getUserMedia });
    const notice = vi.fn();
    await expect(openCamera(setup, notice)).resolves.toBe(fakeStream);
    expect(notice).toHaveBeenCalledWith('Camera requirements not met. Trying with basic settings...');
    expect(setup.sleep).toHaveBeenCalledWith(1000);
    expect(getUserMedia).toHaveBeenLastCalledWith(BASIC_CONSTRAINTS);
    expect(BASIC_CONSTRAINTS).toEqual({ video: true });
  });

  it('the basic retry failing → "Unable to access camera with any settings…"', async () => {
    const getUserMedia = vi
      .fn<MediaDevices['getUserMedia']>()
      .mockRejectedValueOnce(named('OverconstrainedError'))
      .mockRejectedValueOnce(named('NotReadableError'));
    await expect(openCamera(env({ getUserMedia }), vi.fn())).rejects.toThrow(
      'Unable to access camera with any settings. Please check device permissions.',
    );
  });
});
