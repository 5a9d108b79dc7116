import type { LiveMessage } from '@parley/domain/live-timing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LISTENER } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import type { Evening } from '../booking/booking-helpers';
import type { Member } from '../directory/directory-helpers';
import { waitFor } from '../faults/fault-support';
import { withDatabase } from '../global-setup';
import { type ServerProcess, startServer } from '../server-process';
import { createTestApp, type TestApp } from '../test-app';
import {
  heard,
  processLiveUrl,
  ready,
  SIGNALS,
  type Socket,
  send,
  startsIn,
  videoEvening,
} from './live-sockets';

// A video call whose teacher and family reach two different real server processes (main.ts, as `npm
// start` runs it) on one PostgreSQL database: the offer, the answer and a candidate cross between them
// through the database's announcements, and a family without the booking is refused there too.

describe.runIf(process.env.TEST_DB === 'pg')('a video call across two server processes', () => {
  let t: TestApp;
  let e: Evening;
  let bookingId: number;
  let teacher: Member;
  const servers: ServerProcess[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const { rows } = await sql<{ name: string; now: Date }>`
      select current_database() as name, now()`.execute(t.db);
    const since = rows[0]?.now ?? new Date();
    const databaseUrl = withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '');
    // The database is migrated already, so the processes' start-up migration finds nothing to do; the
    // evening is made meanwhile.
    const [a, b, video] = await Promise.all([
      startServer({ databaseUrl }),
      startServer({ databaseUrl }),
      videoEvening(t),
    ]);
    servers.push(a, b);
    ({ e, bookingId, teacher } = video);
    await startsIn(t.db, bookingId, -60_000);
    // Readiness does not wait for a process's listener, which alone hears the other's signals: both must
    // have begun their heartbeats (sent once LISTEN is in place) before a call's first message.
    await waitFor(
      'both processes to hear the database’s announcements',
      async () => {
        const { rows: listening } = await asOwner(() =>
          sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and application_name = ${LISTENER}
              and backend_start >= ${since} and query like 'select pg_notify%'`.execute(t.db),
        );
        return listening[0]?.n === 2;
      },
      10_000,
      50,
    );
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.ws.close();
    // SIGTERM drains each process, which then exits 0.
    const codes = await Promise.all(servers.map((server) => server.stop()));
    await t?.close();
    expect(codes).toEqual(servers.map(() => 0));
  });

  it('relays the offer, the answer and a candidate between them, and refuses a stranger', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const teacherSocket = await ready(processLiveUrl(a), { type: 'hello', token: teacher.token });
    const parent = await ready(processLiveUrl(b), { type: 'hello', token: e.parent.token });
    sockets.push(teacherSocket, parent);
    // A relayed signal carrying this field (an offer or answer's description, or a candidate).
    const signal = (field: 'description' | 'candidate') => (m: LiveMessage) =>
      m.type === 'call' &&
      m.kind === 'signal' &&
      typeof m.data === 'object' &&
      m.data !== null &&
      field in m.data;

    send(teacherSocket, { type: 'call-join', bookingId });
    await heard(teacherSocket, (m) => m.type === 'call-joined');
    send(parent, { type: 'call-join', bookingId });
    expect(await heard(parent, (m) => m.type === 'call-joined')).toMatchObject({ bookingId });
    expect(await heard(teacherSocket, (m) => m.type === 'call' && m.kind === 'joined')).toEqual({
      type: 'call',
      bookingId,
      from: e.parent.id,
      kind: 'joined',
    });

    const { offer, answer, candidate } = SIGNALS;
    send(teacherSocket, { type: 'signal', bookingId, data: offer });
    expect(await heard(parent, signal('description'))).toEqual({
      type: 'call',
      bookingId,
      from: teacher.id,
      kind: 'signal',
      data: offer,
    });
    send(parent, { type: 'signal', bookingId, data: answer });
    expect(await heard(teacherSocket, signal('description'))).toEqual({
      type: 'call',
      bookingId,
      from: e.parent.id,
      kind: 'signal',
      data: answer,
    });
    send(teacherSocket, { type: 'signal', bookingId, data: candidate });
    expect(await heard(parent, signal('candidate'))).toEqual({
      type: 'call',
      bookingId,
      from: teacher.id,
      kind: 'signal',
      data: candidate,
    });

    // Another family of the school, on the family's process, is refused and hears nothing of the call.
    const stranger = await ready(processLiveUrl(b), { type: 'hello', token: e.otherParent.token });
    sockets.push(stranger);
    send(stranger, { type: 'call-join', bookingId });
    expect(await heard(stranger, (m) => m.type === 'call-refused')).toEqual({
      type: 'call-refused',
      bookingId,
      message: 'Appointment not found.',
    });
    expect(stranger.messages.map((m) => m.type)).toEqual(['ready', 'call-refused']);
    // Each message crossed once: the process that saved it does not relay it a second time.
    const kinds = (socket: Socket) => socket.messages.flatMap((m) => (m.type === 'call' ? [m.kind] : []));
    expect(kinds(teacherSocket)).toEqual(['joined', 'signal']);
    expect(kinds(parent)).toEqual(['signal', 'signal']);
  });
});
