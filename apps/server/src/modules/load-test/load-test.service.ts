import { randomBytes, randomUUID } from 'node:crypto';
import { BOOKING_TEXT } from '@parley/domain/booking';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import {
  emptyFigures,
  LOAD_TEST_LIMITS,
  LOAD_TEST_TEXT,
  type LoadTestEventsResponse,
  type LoadTestFigures,
  type LoadTestIntegrity,
  type LoadTestPoint,
  type LoadTestRun,
  loadTestSummary,
  percentile,
  rehearsalConcurrency,
  type StartLoadTestRequest,
} from '@parley/domain/load-test';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { asSchool, asSystem } from '../../db/scope';
import { conflict, HttpError, notFound, unprocessable } from '../../lib/http-error';
import type { Session } from '../../plugins/auth';
import type { Booker } from '../booking/booker';
import { updateSlotForBooking } from '../booking/change-booking.service';
import * as repo from './load-test.repository';

// The load-test rehearsal (issue 15, decision 022): "will my evening hold?". An admin starts it on one of
// the school's events; it runs after the answer, on a sandbox copy of the event in a hidden school, with
// simulated parents booking through the booking service the routes call, a few at a time and for a
// bounded time; then the SQL integrity check, then every synthetic row goes. The run's row is the
// installation's lock (one running at a time) and holds the figures the page polls.

/** What a start (or a test) may tighten; the defaults are the domain's limits. */
export type Limits = {
  maxSeconds: number;
  concurrency: number;
  /** After each attempt, a pause this many times its duration (the embedded database's share for others). */
  pause: number;
};
const DEFAULT_LIMITS: Limits = {
  maxSeconds: LOAD_TEST_LIMITS.maxSeconds,
  concurrency: LOAD_TEST_LIMITS.concurrency,
  pause: 0,
};
/** Unexpected answers (5xx, refusals) after which a run stops rather than press on. */
const MAX_ERRORS = 50;

// This process's own runs, only so shutdown can stop them early (the lock itself is in the database).
const inProcess = new Map<number, AbortController>();

/** Stops this process's rehearsals at once (shutdown); each still removes its sandbox before it ends. */
export function stopRehearsals(): void {
  for (const controller of inProcess.values()) controller.abort();
}

// ── reads ────────────────────────────────────────────────────────────────────────────────────────────

export async function events(ctx: AppContext, schoolId: number): Promise<LoadTestEventsResponse> {
  const now = Date.now();
  const rows = await repo.listEvents(ctx.db, schoolId);
  return {
    events: rows.map((row) => ({
      id: row.id,
      name: row.name,
      typeName: row.type_name,
      groupInt: row.group_int,
      teachers: row.teachers,
      slots: row.slots,
      places: row.places,
      startsAt: row.first_starts_at?.toISOString() ?? null,
      over: row.last_ends_at !== null && row.last_ends_at.getTime() <= now,
    })),
  };
}

function runView(row: NonNullable<repo.RunRow>): LoadTestRun {
  const figures: LoadTestFigures = { ...emptyFigures(), ...(row.figures as Partial<LoadTestFigures>) };
  const integrity = row.integrity as LoadTestIntegrity | null;
  const status = row.status;
  const view = {
    id: row.id,
    eventId: row.event_id,
    eventName: row.event_name,
    parents: row.parents,
    status,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    figures,
    integrity,
    cleanedUp: row.cleaned_at !== null,
    failure: row.failure,
  };
  return { ...view, summary: loadTestSummary(view) };
}

/** The school's latest rehearsal, running or done (what the page polls). */
export async function status(ctx: AppContext, schoolId: number): Promise<{ run: LoadTestRun | null }> {
  const row = await repo.latestRun(ctx.db, schoolId);
  return { run: row ? runView(row) : null };
}

// ── start ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * POST load-test/start: takes the installation's one place (409 when another rehearsal holds it) and
 * starts the rehearsal after the answer. `limits` only ever tightens the domain's.
 */
export async function start(
  ctx: AppContext,
  session: Session,
  body: StartLoadTestRequest,
  limits: Partial<Limits> = {},
): Promise<{ run: LoadTestRun }> {
  const { parents } = body;
  const event = await repo.findEvent(ctx.db, session.schoolId, body.eventId);
  if (!event) throw notFound(LOAD_TEST_TEXT.eventNotFound);
  if (event.slots === 0) throw unprocessable(LOAD_TEST_TEXT.noSlots, { eventId: [LOAD_TEST_TEXT.noSlots] });
  if (event.last_ends_at !== null && event.last_ends_at.getTime() <= Date.now())
    throw unprocessable(LOAD_TEST_TEXT.eventOver, { eventId: [LOAD_TEST_TEXT.eventOver] });
  // A rehearsal whose server died holds the place until swept: sweep first.
  await asSystem(() => sweepLeftovers(ctx.db));
  const runId = await repo.insertRun(ctx.db, {
    schoolId: session.schoolId,
    eventId: event.id,
    eventName: event.name,
    parents,
    startedBy: session.userId,
  });
  if (runId === null) throw conflict(LOAD_TEST_TEXT.busy);
  // The embedded database has one connection: one simulated parent at a time, pausing half as long as
  // each attempt took, so the school's own requests (and the page's polling) always get their turn.
  const embedded = !ctx.config.databaseUrl;
  const most = rehearsalConcurrency(embedded ? null : ctx.config.databasePoolSize);
  const bounded: Limits = {
    maxSeconds: Math.min(limits.maxSeconds ?? DEFAULT_LIMITS.maxSeconds, DEFAULT_LIMITS.maxSeconds),
    concurrency: Math.min(limits.concurrency ?? most, most),
    pause: embedded ? 0.5 : 0,
  };
  const controller = new AbortController();
  inProcess.set(runId, controller);
  const run = { id: runId, schoolId: session.schoolId, eventId: event.id, parents };
  ctx.background.run('load-test rehearsal', () =>
    asSystem(() => rehearse(ctx, run, bounded, controller.signal)).finally(() => inProcess.delete(runId)),
  );
  const row = await repo.findRun(ctx.db, session.schoolId, runId);
  if (!row) throw new Error('the rehearsal just started is gone');
  return { run: runView(row) };
}

// ── the rehearsal ────────────────────────────────────────────────────────────────────────────────────

type Run = { id: number; schoolId: number; eventId: number; parents: number };

/** The figures as they grow: every attempt's latency by the second it ended in. */
class Recorder {
  readonly figures = emptyFigures();
  private readonly all: number[] = [];
  private readonly buckets: Array<{ latencies: number[]; bookings: number; conflicts: number }> = [];
  private started = performance.now();
  private ended: number | null = null;

  /** The clock starts with the rush (not the sandbox's setup) and stops with it. */
  begin(): void {
    this.started = performance.now();
  }
  end(): void {
    this.ended = performance.now();
  }

  attempt(latencyMs: number, outcome: 'booked' | 'conflict' | 'error'): void {
    const second = Math.floor((performance.now() - this.started) / 1000);
    while (this.buckets.length <= second) this.buckets.push({ latencies: [], bookings: 0, conflicts: 0 });
    const bucket = this.buckets[second];
    if (!bucket) return;
    bucket.latencies.push(latencyMs);
    this.all.push(latencyMs);
    this.figures.attempts += 1;
    if (outcome === 'booked') {
      bucket.bookings += 1;
      this.figures.bookings += 1;
    } else if (outcome === 'conflict') {
      bucket.conflicts += 1;
      this.figures.conflicts += 1;
    } else this.figures.errors += 1;
  }

  /** The figures now, series and percentiles included (at most once a second: they sort). */
  snapshot(): LoadTestFigures {
    const round = (ms: number | null) => (ms === null ? null : Math.round(ms * 10) / 10);
    const sorted = [...this.all].sort((a, b) => a - b);
    const series: LoadTestPoint[] = this.buckets.map((bucket, second) => {
      const latencies = [...bucket.latencies].sort((a, b) => a - b);
      return {
        second,
        bookings: bucket.bookings,
        attempts: latencies.length,
        conflicts: bucket.conflicts,
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
      };
    });
    Object.assign(this.figures, {
      seconds: Math.round(((this.ended ?? performance.now()) - this.started) / 100) / 10,
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      series,
    });
    return { ...this.figures, series };
  }
}

async function rehearse(ctx: AppContext, run: Run, limits: Limits, signal: AbortSignal): Promise<void> {
  const { db } = ctx;
  const recorder = new Recorder();
  recorder.figures.limitSeconds = limits.maxSeconds;
  let sandbox: repo.Sandbox | undefined;
  let integrity: LoadTestIntegrity | null = null;
  let failure: string | null = null;
  let problem: unknown;
  // The heartbeat: the figures saved once a second, so the page sees them and the sweep knows we live.
  let saving = Promise.resolve();
  const beat = setInterval(() => {
    saving = saving
      .then(() => asSystem(() => repo.saveFigures(db, run.schoolId, run.id, recorder.snapshot())))
      .catch(() => undefined);
  }, 1000);
  try {
    const tag = randomBytes(6).toString('hex');
    sandbox = await db.transaction().execute((trx) =>
      repo.createSandbox(trx, {
        schoolId: run.schoolId,
        eventId: run.eventId,
        runId: run.id,
        parents: run.parents,
        tag,
        code: `rehearsal-${randomBytes(16).toString('hex')}`,
      }),
    );
    const made = sandbox;
    recorder.begin();
    await asSchool(made.schoolId, () => rush(ctx, made, recorder, limits, signal));
    recorder.end();
    const found = await repo.integrityOf(db, made.schoolId, made.eventId);
    integrity = {
      ...found,
      ok:
        found.doubleBookings === 0 &&
        found.overCapacity === 0 &&
        found.countDrift === 0 &&
        found.bookingsInDatabase === recorder.figures.bookings,
    };
  } catch (error) {
    failure = LOAD_TEST_TEXT.failed;
    problem = error;
  }
  // Every synthetic row goes before the place is given back; what a failed clean-up leaves, the sweep takes.
  let cleaned = false;
  try {
    if (sandbox) await repo.deleteSandbox(db, sandbox.schoolId);
    await removeOrphans(db);
    cleaned = true;
  } catch (error) {
    failure = failure ?? LOAD_TEST_TEXT.failed;
    problem = problem ?? error;
  }
  clearInterval(beat);
  await saving;
  await repo.finishRun(db, run.schoolId, run.id, {
    status: failure ? 'failed' : 'finished',
    figures: recorder.snapshot(),
    integrity,
    failure,
  });
  if (cleaned) await repo.markCleaned(db, run.schoolId, run.id);
  // The background's log reports it.
  if (problem) throw problem;
}

/**
 * The rush: `limits.concurrency` parents book at any moment, each a few of the event's teachers (one slot
 * elsewhere), choosing among the times they believe free; a 409 teaches them a time is taken (or breaks a
 * rule for them) and they choose again, as a parent would from the fresh grid. No attempt starts after
 * the time limit or once the run is stopped.
 */
async function rush(
  ctx: AppContext,
  sandbox: repo.Sandbox,
  recorder: Recorder,
  limits: Limits,
  signal: AbortSignal,
): Promise<void> {
  const deadline = performance.now() + limits.maxSeconds * 1000;
  const over = () => signal.aborted || performance.now() >= deadline || recorder.figures.errors > MAX_ERRORS;
  // What the server has answered so far: places left per slot. A parent's grid is what it was when they
  // opened the page (everything free) until a 409 brings them the fresh one (all that is known now).
  const placesLeft = new Map(sandbox.slots.map((slot) => [slot.id, slot.capacity]));
  const full = () => new Set([...placesLeft].flatMap(([id, left]) => (left <= 0 ? [id] : [])));
  const byTeacher = new Map<number | null, repo.SandboxSlot[]>();
  const isPt = sandbox.groupInt === EVENT_GROUPS.parentTeacher;
  for (const slot of sandbox.slots) {
    const key = isPt ? slot.teacher_id : null;
    byTeacher.set(key, [...(byTeacher.get(key) ?? []), slot]);
  }
  const teachers = [...byTeacher.keys()];
  const perParent = isPt ? Math.min(LOAD_TEST_LIMITS.appointmentsPerParent, teachers.length) : 1;
  const random = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
  const queue = [...sandbox.families].reverse();

  const parent = async (family: { parentId: number; studentId: number }) => {
    const booker: Booker = {
      userId: family.parentId,
      schoolId: sandbox.schoolId,
      roles: ['parent'],
      viaLink: false,
      linkEventId: null,
    };
    const mine: repo.SandboxSlot[] = [];
    const avoid = new Set<number>();
    let known = new Set<number>();
    const wanted = [...teachers].sort(() => Math.random() - 0.5).slice(0, perParent);
    for (const teacher of wanted) {
      for (let tries = 0; tries < 20 && !over(); tries++) {
        const free = (byTeacher.get(teacher) ?? []).filter(
          (slot) =>
            !known.has(slot.id) &&
            !avoid.has(slot.id) &&
            !mine.some((held) => held.starts_at < slot.ends_at && slot.starts_at < held.ends_at),
        );
        const slot = random(free);
        if (!slot) break;
        // A turn for everyone else between attempts: on the embedded database's one connection, a worker
        // that asks again at once would get it again before a waiting request.
        await new Promise((resolve) => setImmediate(resolve));
        const started = performance.now();
        let outcome: 'booked' | 'taken' | 'rule' | 'error';
        try {
          await updateSlotForBooking(ctx, booker, sandbox.eventId, {
            items: [{ slotId: slot.id, studentId: family.studentId }],
            idempotencyKey: randomUUID(),
          });
          outcome = 'booked';
        } catch (error) {
          outcome =
            error instanceof HttpError && error.statusCode === 409
              ? error.message === BOOKING_TEXT.slotTaken
                ? 'taken'
                : 'rule'
              : 'error';
        }
        const took = performance.now() - started;
        recorder.attempt(took, outcome === 'booked' ? 'booked' : outcome === 'error' ? 'error' : 'conflict');
        if (limits.pause > 0) await new Promise((resolve) => setTimeout(resolve, took * limits.pause));
        if (outcome === 'booked') {
          placesLeft.set(slot.id, (placesLeft.get(slot.id) ?? 1) - 1);
          mine.push(slot);
          break;
        }
        if (outcome === 'taken') {
          placesLeft.set(slot.id, 0);
          known = full();
        } else if (outcome === 'rule') avoid.add(slot.id);
        else break;
      }
    }
    recorder.figures.parentsDone += 1;
  };

  await Promise.all(
    Array.from({ length: limits.concurrency }, async () => {
      for (let family = queue.pop(); family && !over(); family = queue.pop()) await parent(family);
    }),
  );
  recorder.figures.stoppedAtLimit = recorder.figures.parentsDone < sandbox.families.length;
}

// ── the sweep ────────────────────────────────────────────────────────────────────────────────────────

async function removeOrphans(db: Db): Promise<void> {
  for (const schoolId of await repo.orphanSandboxes(db)) await repo.deleteSandbox(db, schoolId);
}

/**
 * What a dead rehearsal left (main.ts at start-up, and every start): runs that stopped beating end as
 * failed, and every sandbox no running rehearsal owns is removed with all its rows. System scope.
 */
export async function sweepLeftovers(db: Db): Promise<void> {
  await repo.failDeadRuns(db, LOAD_TEST_LIMITS.staleAfterSeconds, LOAD_TEST_TEXT.interrupted);
  await removeOrphans(db);
  for (const run of await repo.uncleanedRuns(db)) await repo.markCleaned(db, run.school_id, run.id);
}
