import { randomUUID } from 'node:crypto';
import { SERVER_TEXT } from '@parley/domain/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addPerson, api } from '../directory/directory-helpers';
import { createEvent, createSection, daysAhead, eventSchool } from '../events/events-helpers';
import { adminQuery, withDatabase } from '../global-setup';
import { type ServerProcess, startServer } from '../server-process';
import { createTestApp, type TestApp } from '../test-app';
import { type Family, findIntegrityViolations, seedFamilies } from './race-support';

// A database that drops the app's connections in the middle of a booking rush (a failover, a restart of
// a managed database, pg_terminate_backend): the real server process stays up, requests caught in it
// answer 503 with Retry-After, the families' retries (same idempotency key) go through, and the rows
// hold no double booking and no drifted count.

const FAMILIES = 160;
const CLIENTS = 16;
const KILLS = 3;

describe.runIf(process.env.TEST_DB === 'pg')(
  'PostgreSQL drops the app’s connections during a booking rush',
  () => {
    let t: TestApp;
    let server: ServerProcess;
    let eventId: number;
    let families: Family[];
    let databaseName: string;

    beforeAll(async () => {
      t = await createTestApp();
      const school = await eventSchool(t, 'Failover Academy');
      const http = api(t.app);
      const teacherIds: number[] = [];
      for (let i = 0; i < 8; i++)
        teacherIds.push((await addPerson(t, school.admin.token, 'teacher', { sendInvite: false })).id);
      eventId = await createEvent(http, school.admin.token, 'Failover evening', school.types.parentTeacher);
      await createSection(http, school.admin.token, eventId, {
        date: daysAhead(7),
        start: '16:00',
        end: '18:00',
        teachers: teacherIds.map((teacherId) => ({ teacherId })),
      });
      families = await seedFamilies(t.db, school.schoolId, FAMILIES);
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
      databaseName = rows[0]?.name ?? '';
      server = await startServer({ databaseUrl: withDatabase(inject('pgAdminUrl'), databaseName) });
    }, 120_000);

    afterAll(async () => {
      await server?.stop();
      await t?.close();
    });

    it('stays up through three kills: 503 + Retry-After inside them, every family served, no double booking', async () => {
      const slots = await t.db.selectFrom('slots').select('id').where('event_id', '=', eventId).execute();
      expect(slots.length).toBe(96);
      const statuses = new Map<number, number>();
      let unavailableWithoutRetryAfter = 0;
      let booked = 0;
      const queue = [...families];
      const taken = new Set<number>();

      // One family: picks a free slot (the grid of its last 409), retries a 503 with the same key as the
      // web client does, and stops at its 200 or when nothing is free.
      const serve = async (family: Family) => {
        let choices = slots.map((slot) => slot.id);
        for (let attempt = 0; attempt < 200 && choices.length > 0; attempt++) {
          const slotId = choices[Math.floor(Math.random() * choices.length)] as number;
          const key = randomUUID();
          for (;;) {
            const response = await fetch(`${server.url}/api/events/update-slot-for-booking?id=${eventId}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${family.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ items: [{ slotId, studentId: family.studentId }], idempotencyKey: key }),
            }).catch(() => undefined);
            const status = response?.status ?? 0;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            const body = (await response?.json().catch(() => ({}))) as {
              message?: string;
              grid?: Array<{ slots: Array<{ id: number; free: number }> }>;
            };
            if (status === 503) {
              expect(body.message).toBe(SERVER_TEXT.unavailable);
              if (!response?.headers.get('retry-after')) unavailableWithoutRetryAfter += 1;
              await new Promise((resolve) => setTimeout(resolve, 50));
              continue; // the same request again: the idempotency key makes a committed one answer as before
            }
            if (status === 200) {
              booked += 1;
              taken.add(slotId);
              return;
            }
            expect(status).toBe(409);
            taken.add(slotId);
            // The 409's grid shows that teacher's free slots; when it has none, any slot not yet taken.
            choices = (body.grid ?? []).flatMap((group) =>
              group.slots.filter((s) => s.free > 0).map((s) => s.id),
            );
            if (choices.length === 0) choices = slots.map((slot) => slot.id).filter((id) => !taken.has(id));
            break;
          }
        }
      };

      const clients = Array.from({ length: CLIENTS }, async () => {
        for (let family = queue.shift(); family; family = queue.shift()) await serve(family);
      });
      // Three kills of every backend of the app's database while the clients rush.
      const kills = (async () => {
        for (let i = 0; i < KILLS; i++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          await adminQuery(
            inject('pgAdminUrl'),
            `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${databaseName}' and pid <> pg_backend_pid()`,
          );
        }
      })();
      await Promise.all([...clients, kills]);

      const summary = Object.fromEntries(statuses);
      console.info(
        `connection kills during the rush: ${JSON.stringify({ kills: KILLS, booked, statuses: summary })}`,
      );
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toMatch(/"level":(50|60)|uncaught/i); // no error logged, no crash
      expect(statuses.get(0) ?? 0).toBe(0); // no connection refused or reset: the process never went down
      expect((statuses.get(503) ?? 0) > 0, 'a kill caught requests in flight').toBe(true);
      expect(unavailableWithoutRetryAfter).toBe(0);
      expect([...statuses.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([]);
      expect(booked).toBe(96); // the rush completed: every slot taken, each by one family
      const report = await findIntegrityViolations(t.db, [eventId]);
      expect(report.overCapacity).toEqual([]);
      expect(report.countDrift).toEqual([]);
      expect(report.parentSameTeacher).toEqual([]);
      expect(report.studentOverlaps).toEqual([]);
      expect(report.misplaced).toEqual([]);
      // And the next request simply works.
      expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    }, 180_000);
  },
);
