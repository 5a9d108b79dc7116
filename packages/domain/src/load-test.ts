import { idParam } from './fields';
import { z } from './zod';

// The load-test page (issue 15, decision 022): an admin rehearses an event's opening rush on a sandbox copy
// with simulated parents booking through the real booking path. The wire contract, the limits that keep a
// rehearsal from hurting other schools, and the plain-words summary, once for both sides.

export const LOAD_TEST_LIMITS = {
  minParents: 1,
  maxParents: 1000,
  defaultParents: 300,
  /** Hard stop: no booking attempt starts after this many seconds. */
  maxSeconds: 60,
  /** Simulated parents booking at any moment: a fraction of the server's pool, so other schools still get theirs. */
  concurrency: 8,
  /** On the embedded database (one connection) more at once would only queue, ahead of everyone else. */
  embeddedConcurrency: 1,
  /** Appointments each simulated parent tries to book at a parent-teacher evening (one elsewhere). */
  appointmentsPerParent: 3,
  /** A run whose process stopped beating this long ago is dead: its sandbox is swept. */
  staleAfterSeconds: 15,
} as const;

/**
 * Simulated parents booking at once: on PostgreSQL at most half the server's pool (the school's own
 * requests keep the other half), never more than the limit; on the embedded database (poolSize null) one.
 */
export function rehearsalConcurrency(poolSize: number | null): number {
  if (poolSize === null) return LOAD_TEST_LIMITS.embeddedConcurrency;
  return Math.max(1, Math.min(LOAD_TEST_LIMITS.concurrency, Math.floor(poolSize / 2)));
}

/** Every synthetic person's address is at this domain: `.invalid` can never be delivered (RFC 2606). */
export const SYNTHETIC_EMAIL_DOMAIN = 'rehearsal.parley.invalid';

/** Whether an address is a synthetic one (no mail is ever queued for it). */
export const isSyntheticAddress = (email: string): boolean => /\.invalid$/i.test(email.trim());

export const LOAD_TEST_TEXT = {
  busy: 'A rehearsal is already running on this installation. Try again when it has finished (at most about a minute).',
  eventNotFound: 'Event not found.',
  noSlots: 'This event has no times to book yet. Add its sections first.',
  eventOver: 'This event has already taken place, so its opening rush cannot be rehearsed.',
  interrupted: 'The rehearsal was interrupted (the server stopped). Everything it made has been removed.',
  failed: 'The rehearsal could not finish. Everything it made has been removed.',
} as const;

export const startLoadTestRequest = z.strictObject({
  eventId: idParam,
  parents: z.coerce
    .number()
    .int()
    .min(LOAD_TEST_LIMITS.minParents, `At least ${LOAD_TEST_LIMITS.minParents} parent.`)
    .max(
      LOAD_TEST_LIMITS.maxParents,
      `At most ${LOAD_TEST_LIMITS.maxParents.toLocaleString('en-US')} parents.`,
    )
    .default(LOAD_TEST_LIMITS.defaultParents),
});
/** As the server receives it (parsed); a client sends `{ eventId, parents }`. */
export type StartLoadTestRequest = z.output<typeof startLoadTestRequest>;

/** An event the admin may rehearse, with the size of its grid. */
export const loadTestEvent = z.object({
  id: z.number(),
  name: z.string(),
  typeName: z.string(),
  groupInt: z.number(),
  teachers: z.number(),
  slots: z.number(),
  /** Places over all slots (a slot's capacity). */
  places: z.number(),
  startsAt: z.string().nullable(),
  /** Its last section has ended: it cannot be rehearsed. */
  over: z.boolean(),
});
export type LoadTestEvent = z.infer<typeof loadTestEvent>;
export const loadTestEventsResponse = z.object({ events: z.array(loadTestEvent) });
export type LoadTestEventsResponse = z.infer<typeof loadTestEventsResponse>;

/** One second of the run: what finished in it. Latencies in ms; null when nothing finished. */
export const loadTestPoint = z.object({
  second: z.number(),
  bookings: z.number(),
  attempts: z.number(),
  conflicts: z.number(),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
});
export type LoadTestPoint = z.infer<typeof loadTestPoint>;

/** What the SQL check found on the sandbox event after the run. */
export const loadTestIntegrity = z.object({
  /** Two live bookings where one is allowed: a parent or child twice with a teacher, or at one time. */
  doubleBookings: z.number(),
  /** Slots holding more than their capacity. */
  overCapacity: z.number(),
  /** Slots whose count of places taken differs from their live bookings. */
  countDrift: z.number(),
  /** Live bookings in the database, against the successful answers counted by the run. */
  bookingsInDatabase: z.number(),
  ok: z.boolean(),
});
export type LoadTestIntegrity = z.infer<typeof loadTestIntegrity>;

export const LOAD_TEST_STATUSES = ['running', 'finished', 'failed'] as const;
export type LoadTestStatus = (typeof LOAD_TEST_STATUSES)[number];

/** The figures a run has gathered so far (kept on its row, so any server instance can answer the page). */
export const loadTestFigures = z.object({
  /** Simulated parents who have finished booking (or given up). */
  parentsDone: z.number(),
  bookings: z.number(),
  attempts: z.number(),
  /** 409s answered (a time just taken, or a rule): each one a race the database resolved. */
  conflicts: z.number(),
  /** Any other answer (a 5xx or an unexpected refusal). */
  errors: z.number(),
  seconds: z.number(),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  /** The run reached the time limit before every parent had finished. */
  stoppedAtLimit: z.boolean(),
  limitSeconds: z.number(),
  series: z.array(loadTestPoint),
});
export type LoadTestFigures = z.infer<typeof loadTestFigures>;

export const emptyFigures = (): LoadTestFigures => ({
  parentsDone: 0,
  bookings: 0,
  attempts: 0,
  conflicts: 0,
  errors: 0,
  seconds: 0,
  p50Ms: null,
  p99Ms: null,
  stoppedAtLimit: false,
  limitSeconds: LOAD_TEST_LIMITS.maxSeconds,
  series: [],
});

export const loadTestRun = z.object({
  id: z.number(),
  eventId: z.number(),
  eventName: z.string(),
  parents: z.number(),
  status: z.enum(LOAD_TEST_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  figures: loadTestFigures,
  integrity: loadTestIntegrity.nullable(),
  /** Every synthetic row (the event's copy, families, bookings) has been removed. */
  cleanedUp: z.boolean(),
  failure: z.string().nullable(),
  /** The result in plain words, once the run has finished. */
  summary: z.string().nullable(),
});
export type LoadTestRun = z.infer<typeof loadTestRun>;

export const loadTestStatusResponse = z.object({ run: loadTestRun.nullable() });
export type LoadTestStatusResponse = z.infer<typeof loadTestStatusResponse>;

/** The value at a percentile of sorted numbers (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? null;
}

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Seconds as people say them: "41 s", "0.4 s", "0.02 s". */
export function secondsLabel(ms: number): string {
  const s = ms / 1000;
  if (s >= 10) return `${Math.round(s)} s`;
  if (s >= 0.1) return `${Number(s.toFixed(1))} s`;
  return `${Number(s.toFixed(2))} s`;
}

/**
 * "300 parents booked 870 appointments in 41 s; slowest 1 % waited 0.4 s; no double bookings."
 * Null while running; the failure's text for a failed run.
 */
export function loadTestSummary(run: {
  status: LoadTestStatus;
  parents: number;
  figures: LoadTestFigures;
  integrity: LoadTestIntegrity | null;
  failure: string | null;
}): string | null {
  if (run.status === 'running') return null;
  if (run.status === 'failed') return run.failure ?? LOAD_TEST_TEXT.failed;
  const { figures, integrity } = run;
  const parts = [
    `${count(run.parents, 'parent', 'parents')} booked ${count(figures.bookings, 'appointment', 'appointments')} in ${secondsLabel(figures.seconds * 1000)}`,
  ];
  if (figures.p99Ms !== null) parts.push(`slowest 1 % waited ${secondsLabel(figures.p99Ms)}`);
  if (figures.stoppedAtLimit)
    parts.push(
      `stopped at the ${figures.limitSeconds} s limit with ${count(figures.parentsDone, 'parent', 'parents')} done`,
    );
  if (figures.errors > 0) parts.push(`${count(figures.errors, 'request', 'requests')} failed`);
  if (integrity) {
    const broken = integrity.doubleBookings + integrity.overCapacity + integrity.countDrift;
    parts.push(
      integrity.ok
        ? 'no double bookings'
        : `${count(broken, 'integrity problem', 'integrity problems')} found (${integrity.doubleBookings} double bookings, ${integrity.overCapacity} slots over capacity)`,
    );
  }
  return `${parts.join('; ')}.`;
}
