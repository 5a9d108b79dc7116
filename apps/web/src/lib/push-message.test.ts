import { PUSH_ACTIONS } from '@parley/domain/push';
import { describe, expect, it } from 'vitest';
import { appPath, isPushAction, readPush } from './push-message';

// How a push's fields are read, by the service worker and the native shell alike.

describe('readPush', () => {
  it('knows exactly the domain’s actions (its own list is checked against them)', () => {
    for (const action of PUSH_ACTIONS) expect(isPushAction(action)).toBe(true);
    for (const other of ['hello', '', 'REFRESH_HOME', 'toString', '__proto__', 'constructor', 1, null]) {
      expect(isPushAction(other)).toBe(false);
    }
  });

  it('keeps the fields of one of ours; missing texts are empty and a missing url is home', () => {
    expect(
      readPush({ action: 'booking', title: 'Booked', body: '16:00', url: '/book/event/A?x=1#t' }),
    ).toEqual({ action: 'booking', title: 'Booked', body: '16:00', url: '/book/event/A?x=1#t' });
    expect(readPush({ action: 'refresh_home' })).toEqual({
      action: 'refresh_home',
      title: '',
      body: '',
      url: '/home',
    });
  });

  it('is null for anything without a known action', () => {
    for (const data of [undefined, null, 'booking', 7, [], {}, { action: 'hello' }, { action: 3 }]) {
      expect(readPush(data)).toBeNull();
    }
  });

  it('a url that would leave the app is home', () => {
    for (const url of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      'book/event/A',
      42,
    ]) {
      expect(readPush({ action: 'invitation', url })?.url).toBe('/home');
      expect(appPath(url)).toBeNull();
    }
    expect(appPath('/accept-parent-invite?token=a//b')).toBe('/accept-parent-invite?token=a//b');
  });
});
