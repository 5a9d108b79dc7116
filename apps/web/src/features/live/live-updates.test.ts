import { LIVE_CLOSE } from '@parley/domain/live-timing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { clearSession, startSession } from '../../lib/session';
import { FakeSocket } from '../../test-support/fake-socket';
import { adminUser } from '../../test-support/screen-fixtures';
import { startLiveUpdates } from './live-updates';

// The page's live channel (issue 41) as the app opens it: with the session's token, and, once the server
// says that token names nobody any more (signed out elsewhere, disabled), the page asks the API again,
// whose answer signs it out.

const sockets: FakeSocket[] = [];
vi.stubGlobal(
  'WebSocket',
  class extends FakeSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  },
);
afterAll(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('live updates', () => {
  it('opens with the session, refreshes on news, and asks the API again when the session has ended', () => {
    startSession('tok-live', adminUser);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    startLiveUpdates();
    const socket = sockets.at(-1) as FakeSocket;
    socket.emit('open');
    expect(JSON.parse(socket.sent[0] ?? '')).toEqual({ type: 'hello', token: 'tok-live' });
    socket.emit('message', { data: JSON.stringify({ type: 'ready' }) });
    socket.emit('message', { data: JSON.stringify({ type: 'timing', eventId: 4 }) });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['booking', 'page'] });
    invalidate.mockClear();
    // Signed out elsewhere: every query the page shows is asked for again.
    socket.emit('close', { code: LIVE_CLOSE.unauthorized });
    expect(invalidate).toHaveBeenCalledWith();
    expect(sockets).toHaveLength(1);
  });
});
