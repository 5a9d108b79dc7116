import { afterEach, describe, expect, it, vi } from 'vitest';
import { canScanOnDevice, deviceTraits } from './device-check';

describe('Mobile Device Required (spec §5: a touch device with a camera)', () => {
  it('a phone or tablet with the camera API can scan', () => {
    expect(canScanOnDevice({ hasMediaDevices: true, maxTouchPoints: 5, coarsePointer: true })).toBe(true);
    expect(canScanOnDevice({ hasMediaDevices: true, maxTouchPoints: 0, coarsePointer: true })).toBe(true);
    expect(canScanOnDevice({ hasMediaDevices: true, maxTouchPoints: 10, coarsePointer: false })).toBe(true);
  });

  it('a desktop without touch, or any device without the camera API, cannot', () => {
    expect(canScanOnDevice({ hasMediaDevices: true, maxTouchPoints: 0, coarsePointer: false })).toBe(false);
    expect(canScanOnDevice({ hasMediaDevices: false, maxTouchPoints: 5, coarsePointer: true })).toBe(false);
  });
});

describe('deviceTraits', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the camera API, touch points and the coarse pointer from the browser', () => {
    vi.stubGlobal('navigator', { mediaDevices: {}, maxTouchPoints: 2 });
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)' }));
    expect(deviceTraits()).toEqual({ hasMediaDevices: true, maxTouchPoints: 2, coarsePointer: true });
  });

  it('a browser without matchMedia or mediaDevices counts as neither', () => {
    vi.stubGlobal('navigator', { maxTouchPoints: 0 });
    vi.stubGlobal('matchMedia', undefined);
    expect(deviceTraits()).toEqual({ hasMediaDevices: false, maxTouchPoints: 0, coarsePointer: false });
  });
});
