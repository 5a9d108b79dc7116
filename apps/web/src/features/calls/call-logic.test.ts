import { callPath } from '@parley/domain/routes';
import { describe, expect, it } from 'vitest';
import { clockSkew, clockText, makesOffer, signalFor } from './call-logic';

// The call page's pure rules (issue 41).

describe('a video call’s rules', () => {
  it('counts down in minutes and seconds, never below zero', () => {
    expect(clockText(425_000)).toBe('7:05');
    expect(clockText(59_001)).toBe('1:00');
    expect(clockText(999)).toBe('0:01');
    expect(clockText(-5_000)).toBe('0:00');
  });

  it('has exactly one side of each pair make the offer', () => {
    expect(makesOffer(3, 9)).toBe(true);
    expect(makesOffer(9, 3)).toBe(false);
  });

  it('addresses the call, with the event’s code for a family by its mail’s link', () => {
    expect(callPath(42)).toBe('/call/42');
    expect(callPath(42, 'AB C')).toBe('/call/42?code=AB%20C');
  });

  it('reads the server’s clock against the device’s', () => {
    expect(clockSkew('2026-12-07T12:00:05.000Z', Date.parse('2026-12-07T12:00:00.000Z'))).toBe(5_000);
  });

  it('takes a signal meant for this page, or for everyone, and nothing else', () => {
    const offer = { to: 7, description: { type: 'offer', sdp: 'v=0' } };
    expect(signalFor(offer, 7)).toEqual(offer);
    expect(signalFor(offer, 8)).toBeNull();
    expect(signalFor({}, 8)).toEqual({});
    expect(signalFor(null, 7)).toBeNull();
    expect(signalFor('offer', 7)).toBeNull();
  });
});
