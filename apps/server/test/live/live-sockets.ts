import type { LiveMessage } from '@parley/domain/live-timing';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app';
import type { Db } from '../../src/db/database';
import type { LiveClock } from '../../src/modules/live/live-hub';
import { booked, bookingPage, type Evening, evening, freeSlots } from '../booking/booking-helpers';
import { expectStatus, type Member } from '../directory/directory-helpers';
import { waitFor } from '../faults/fault-support';
import type { ServerProcess } from '../server-process';
import type { TestApp } from '../test-app';
import { openElsewhere } from '../test-db';

// The live channel as a browser opens it, for the tests of live timing and video calls.

export type Socket = { ws: WebSocket; messages: LiveMessage[]; closed: Promise<number> };

/**
 * The live hub's clock, moved by the test (buildApp's liveClock): `advance` runs, in order, each timer due
 * by then, including those set by a timer it ran.
 */
export function manualClock(start = 0): LiveClock & { advance(to: number): void } {
  let now = start;
  const timers: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  return {
    now: () => new Date(now),
    setTimeout(run, ms) {
      const timer = { at: now + ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    advance(to) {
      for (;;) {
        const due = timers
          .filter((timer) => !timer.cancelled && timer.at <= to)
          .sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        due.cancelled = true;
        now = due.at;
        due.run();
      }
      now = to;
    },
  };
}

/** The app's live channel on a real socket, as a browser opens it (the app listens on a free port). */
export async function liveUrl(app: TestApp['app']): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `ws://127.0.0.1:${address.port}/api/live`;
}

/** A server process's live channel (server-process.ts), as a browser on its page opens it. */
export function processLiveUrl(server: ServerProcess): string {
  return `${server.url.replace(/^http/, 'ws')}/api/live`;
}

/**
 * A live-channel socket that has said hello (or tried to), with everything it hears: on a test app, or at
 * a live channel's URL (a server process's).
 */
export async function connect(app: TestApp['app'] | string, hello: unknown): Promise<Socket> {
  const ws = new WebSocket(typeof app === 'string' ? app : await liveUrl(app));
  const messages: LiveMessage[] = [];
  ws.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data)) as LiveMessage));
  const closed = new Promise<number>((resolve) =>
    ws.addEventListener('close', (event) => resolve(event.code)),
  );
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  ws.send(typeof hello === 'string' ? hello : JSON.stringify(hello));
  return { ws, messages, closed };
}

export async function ready(app: TestApp['app'] | string, hello: unknown): Promise<Socket> {
  const socket = await connect(app, hello);
  await waitFor('ready', () => socket.messages.some((m) => m.type === 'ready'), 5000, 10);
  return socket;
}

/** Waits for a message the socket hears that matches, and returns it. */
export async function heard(socket: Socket, match: (message: LiveMessage) => boolean): Promise<LiveMessage> {
  await waitFor('a message', () => socket.messages.some(match), 5000, 10);
  return socket.messages.find(match) as LiveMessage;
}

/** Sends a message on the socket, as the page does. */
export function send(socket: Socket, message: unknown): void {
  socket.ws.send(JSON.stringify(message));
}

/** An offer, an answer and a candidate as a browser would send them: the relay carries them as they are. */
export const SIGNALS = {
  offer: { description: { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' } },
  answer: { description: { type: 'answer', sdp: 'v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\n' } },
  candidate: {
    candidate: {
      candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 5000 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    },
  },
};

/**
 * On PostgreSQL, the app again on the same database with a pool and listener of its own: another server
 * process, as far as the database's announcements go. Undefined on PGlite.
 */
export async function anotherProcess(
  t: TestApp,
): Promise<{ app: FastifyInstance; close(): Promise<void> } | undefined> {
  const db = await openElsewhere(t.db);
  if (!db) return undefined;
  const app = await buildApp({ db, config: t.config, logger: false });
  return {
    app,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

/** The parent's booking with teacher 0 for the first child, on a video evening. */
export async function videoEvening(t: TestApp): Promise<{ e: Evening; bookingId: number; teacher: Member }> {
  const e = await evening(t, { quick: true, timezone: 'Europe/London' });
  expectStatus(
    await e.http.post(`events/update?id=${e.eventId}`, e.admin.token, { meetingMode: 'video' }),
    200,
  );
  const teacher = e.teachers[0] as Member;
  const page = await bookingPage(e, e.parent.token, e.code);
  const result = await booked(e, e.parent.token, [
    {
      slotId: freeSlots(page.grid, teacher.id)[0] ?? 0,
      studentId: e.children[0]?.id ?? 0,
      subjectId: e.subjects[0] ?? 0,
    },
  ]);
  return { e, bookingId: result.created[0] ?? 0, teacher };
}

/** Moves the booking so that it starts `ms` from now and lasts ten minutes (the test's own clock). */
export async function startsIn(db: Db, bookingId: number, ms: number): Promise<void> {
  const starts = new Date(Date.now() + ms);
  await sql`UPDATE bookings SET starts_at = ${starts}, ends_at = ${new Date(starts.getTime() + 10 * 60_000)}
    WHERE id = ${bookingId}`.execute(db);
}
