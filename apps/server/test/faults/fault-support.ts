import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { type Db, LISTENER } from '../../src/db/database';
import { addPerson, api } from '../directory/directory-helpers';
import {
  createEvent,
  createSection,
  daysAhead,
  type EventSchool,
  eventSchool,
} from '../events/events-helpers';
import type { TestApp } from '../test-app';

// What the fault tests share: families booking through the API (in process or over HTTP to a server
// process), the school they book at, waiting for a condition, and the outbox's lease as seen by SMTP.

export type Answer = { status: number; body: Record<string, unknown> };
/** POST /api/<path> as the token's owner; status 0 when no answer came (the server went away). */
export type Poster = (path: string, token: string, payload: unknown) => Promise<Answer>;

export const injectPoster =
  (app: FastifyInstance): Poster =>
  async (path, token, payload) => {
    const response = await api(app).post(path, token, payload);
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

export const httpPoster =
  (baseUrl: string, headers: Record<string, string> = {}): Poster =>
  async (path, token, payload) => {
    const response = await fetch(`${baseUrl}/api/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(payload),
    }).catch(() => undefined);
    if (!response) return { status: 0, body: {} };
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, body };
  };

export type BookingFamily = { parentId: number; studentId: number; token: string };
/** One booking request as sent and as answered (status 0: no answer). */
export type Attempt = { key: string; slotId: number; guests: number; status: number; created: number[] };

/**
 * One family books one place at the event: a random slot of `slotIds`, another after a 409 (a free one
 * of the answer's grid, else any not yet found taken), until a 200, nothing is left, or no answer comes.
 * A 503 is sent again with the same idempotency key, as the web client does. Every request is logged.
 */
export async function bookOnePlace(
  post: Poster,
  eventId: number,
  family: BookingFamily,
  slotIds: number[],
  options: { guests?: number; log?: Attempt[] } = {},
): Promise<Attempt | undefined> {
  const guests = options.guests ?? 0;
  const taken = new Set<number>();
  let choices = slotIds;
  for (let tries = 0; tries < 50 && choices.length > 0; tries++) {
    const slotId = choices[Math.floor(Math.random() * choices.length)] as number;
    const key = randomUUID();
    for (let retries = 0; ; retries++) {
      const answer = await post(`events/update-slot-for-booking?id=${eventId}`, family.token, {
        items: [{ slotId, studentId: family.studentId, ...(guests > 0 && { guests }) }],
        idempotencyKey: key,
      });
      const created = Array.isArray(answer.body.created) ? (answer.body.created as number[]) : [];
      const attempt = { key, slotId, guests, status: answer.status, created };
      options.log?.push(attempt);
      if (answer.status === 503 && retries < 20) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      if (answer.status !== 409) return attempt;
      taken.add(slotId);
      const grid = (answer.body.grid ?? []) as Array<{ slots: Array<{ id: number; free: number }> }>;
      choices = grid.flatMap((group) => group.slots.filter((s) => s.free > 0).map((s) => s.id));
      if (choices.length === 0) choices = slotIds.filter((id) => !taken.has(id));
      break;
    }
  }
  return undefined;
}

/** Runs `families` through `clients` concurrent workers, each family once. */
export async function inParallel<T>(items: T[], clients: number, each: (item: T) => Promise<unknown>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await each(item);
    }),
  );
}

/** Polls until the condition holds; throws with `what` after timeoutMs. */
export async function waitFor(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs: number,
  stepMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/**
 * The outbox row as SMTP accepts its mail: it must still be pending and leased (locked_until ahead). A
 * mail accepted once its row was sent, failed, or its lease had run out is named here.
 */
export async function leaseProblem(db: Db, outboxId: number): Promise<string | null> {
  const { rows } = await sql<{ status: string; leased: boolean }>`
    select status, coalesce(locked_until > now(), false) as leased from mail_outbox where id = ${outboxId}`.execute(
    db,
  );
  const row = rows[0];
  if (!row) return `outbox row ${outboxId} does not exist`;
  if (row.status !== 'pending') return `outbox row ${outboxId} was already ${row.status}`;
  if (!row.leased) return `outbox row ${outboxId} was accepted after its lease had run out`;
  return null;
}

/** The outbox by status, and the rows' attempts. */
export async function outboxState(db: Db) {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'status', 'attempts'])
    .orderBy('id')
    .execute();
  const byStatus = (status: string) => rows.filter((row) => row.status === status).length;
  return { rows, pending: byStatus('pending'), sent: byStatus('sent'), failed: byStatus('failed') };
}

export type Evening = {
  schoolId: number;
  adminToken: string;
  adminEmail: string;
  types: EventSchool['types'];
  eventId: number;
  slotIds: number[];
};

/** A school with a parent-teacher evening (enabled, a week ahead, 16:00–20:00, 10-minute slots). */
export async function parentsEvening(t: TestApp, name: string, teachers: number): Promise<Evening> {
  const school = await eventSchool(t, name);
  const teacherIds: number[] = [];
  for (let i = 0; i < teachers; i++)
    teacherIds.push((await addPerson(t, school.admin.token, 'teacher', { sendInvite: false })).id);
  const http = api(t.app);
  const eventId = await createEvent(http, school.admin.token, `${name} evening`, school.types.parentTeacher);
  await createSection(http, school.admin.token, eventId, {
    date: daysAhead(7),
    start: '16:00',
    end: '20:00',
    teachers: teacherIds.map((teacherId) => ({ teacherId })),
  });
  const slots = await t.db.selectFrom('slots').select('id').where('event_id', '=', eventId).execute();
  return {
    schoolId: school.schoolId,
    adminToken: school.admin.token,
    adminEmail: school.admin.email,
    types: school.types,
    eventId,
    slotIds: slots.map((slot) => slot.id),
  };
}

/**
 * A TCP proxy to PostgreSQL that can go silent, as a proxy or network between that stops passing data
 * without closing: its connections stay open and pass nothing more. `silence('listener')` silences only
 * the process's listening connection (its startup names it LISTENER), so its queries still go through.
 */
export async function silenceableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let silent: 'all' | 'listener' | undefined;
  const server: Server = createServer((client) => {
    const to = connect(Number(target.port || 5432), target.hostname);
    let listener: boolean | undefined;
    for (const socket of [client, to]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    const passes = () => silent === undefined || (silent === 'listener' && !listener);
    client.on('data', (chunk) => {
      listener ??= chunk.includes(LISTENER);
      if (passes()) to.write(chunk);
    });
    to.on('data', (chunk) => passes() && client.write(chunk));
    client.on('end', () => to.end());
    to.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    /** The target's URL through this proxy. */
    url: url.toString(),
    silence: (which: 'all' | 'listener' = 'all') => {
      silent = which;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
