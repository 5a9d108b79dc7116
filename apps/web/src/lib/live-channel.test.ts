import { LIVE_CLOSE } from '@parley/domain/live-timing';
import { describe, expect, it } from 'vitest';
import { FakeSocket } from '../test-support/fake-socket';
import { LIVE_RETRY_MS, LiveChannel, liveUrl } from './live-channel';

// The live channel's client (issue 41): hello with the credential on open, news handed on, a lost socket
// back after a growing pause (or at once on wake), none after a refusal until another credential.

function channel() {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
  const news: unknown[] = [];
  const ready = { count: 0 };
  const refusals = { count: 0 };
  const live = new LiveChannel({
    url: 'wss://school.example/api/live',
    onNews: (message) => news.push(message),
    onReady: () => {
      ready.count += 1;
    },
    onRefused: () => {
      refusals.count += 1;
    },
    open: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    setTimer: (run, ms) => {
      const timer = { ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  });
  return { live, sockets, timers, news, ready, refusals };
}

describe('the live channel', () => {
  it('is beside the API: the page’s origin on the web, the school’s server in the native app', () => {
    expect(liveUrl('/api', { protocol: 'https:', host: 'parley.school' })).toBe(
      'wss://parley.school/api/live',
    );
    expect(liveUrl('/api', { protocol: 'http:', host: 'localhost:3000' })).toBe(
      'ws://localhost:3000/api/live',
    );
    expect(liveUrl('https://parley.school/api', { protocol: 'capacitor:', host: 'localhost' })).toBe(
      'wss://parley.school/api/live',
    );
  });

  it('says hello with the session and hands on the news, ignoring what it cannot read', () => {
    const { live, sockets, news } = channel();
    live.use({ token: 'abc' });
    const socket = sockets[0] as FakeSocket;
    socket.emit('open');
    expect(socket.sent.map((text) => JSON.parse(text))).toEqual([{ type: 'hello', token: 'abc' }]);
    socket.emit('message', { data: JSON.stringify({ type: 'ready' }) });
    socket.emit('message', { data: JSON.stringify({ type: 'timing', eventId: 12 }) });
    socket.emit('message', { data: 'not json' });
    socket.emit('message', { data: JSON.stringify({ type: 'timing', eventId: 'x' }) });
    expect(news).toEqual([{ type: 'timing', eventId: 12 }]);
    // The same credential again changes nothing; none closes the socket.
    live.use({ token: 'abc' });
    expect(sockets).toHaveLength(1);
    live.use(null);
    expect(socket.closedWith).toBe(1000);
  });

  it('sends a call’s messages only once its hello is accepted, and says so after each reconnect', () => {
    const { live, sockets, ready, news } = channel();
    const join = { type: 'call-join', bookingId: 5 } as const;
    expect(live.send(join)).toBe(false);
    live.use({ link: 'personal-link' });
    const first = sockets[0] as FakeSocket;
    first.emit('open');
    expect(live.send(join)).toBe(false);
    first.emit('message', { data: JSON.stringify({ type: 'ready' }) });
    expect(ready.count).toBe(1);
    expect(live.send(join)).toBe(true);
    expect(first.sent.map((text) => JSON.parse(text))).toEqual([
      { type: 'hello', link: 'personal-link' },
      join,
    ]);
    // A call's news goes to the page as it came.
    const heard = { type: 'call', bookingId: 5, from: 3, kind: 'joined' };
    first.emit('message', { data: JSON.stringify(heard) });
    expect(news).toEqual([heard]);
    // Lost: nothing is sent until the new socket's hello is accepted, and then the page hears it again.
    first.emit('close', { code: 1006 });
    expect(live.send(join)).toBe(false);
    live.wake();
    const second = sockets[1] as FakeSocket;
    second.emit('open');
    second.emit('message', { data: JSON.stringify({ type: 'ready' }) });
    expect(ready.count).toBe(2);
  });

  it('comes back after a growing pause when lost, at once on wake, and not after a refusal', () => {
    const { live, sockets, timers, refusals } = channel();
    live.use({ link: 'personal-link' });
    (sockets[0] as FakeSocket).emit('close', { code: 1006 });
    (sockets[0] as FakeSocket).emit('close', { code: 1006 });
    expect(timers.map((timer) => timer.ms)).toEqual([LIVE_RETRY_MS[0]]);
    timers[0]?.run();
    expect(sockets).toHaveLength(2);
    (sockets[1] as FakeSocket).emit('close', { code: 1006 });
    expect(timers.map((timer) => timer.ms)).toEqual([LIVE_RETRY_MS[0], LIVE_RETRY_MS[1]]);
    // The page is shown again: no waiting out the pause.
    live.wake();
    expect(timers[1]?.cancelled).toBe(true);
    expect(sockets).toHaveLength(3);
    (sockets[2] as FakeSocket).emit('open');
    expect(JSON.parse((sockets[2] as FakeSocket).sent[0] ?? '')).toEqual({
      type: 'hello',
      link: 'personal-link',
    });
    // Refused: the page is told; no retry, and waking does nothing, until another credential.
    (sockets[2] as FakeSocket).emit('close', { code: LIVE_CLOSE.unauthorized });
    expect(refusals.count).toBe(1);
    expect(timers).toHaveLength(2);
    live.wake();
    expect(sockets).toHaveLength(3);
    live.use({ token: 'fresh' });
    expect(sockets).toHaveLength(4);
  });
});
