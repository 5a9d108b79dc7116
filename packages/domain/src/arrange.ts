// "Arrange for me": a parent picks several teachers (for one or more children) and we book one slot with
// each, packed into the most compact schedule the family can keep.
//
// A schedule is feasible when every need has exactly one pick, and any two picks, and any pick and any of
// the family's busy appointments, are at least `travelMinutes` apart (end of one → start of the next), all
// within [earliest, latest]. Among feasible schedules the best is, each rule only breaking ties of the one
// before:
//   1. the smallest span: first start → last end of the picks;
//   2. the fewest idle minutes: gaps between consecutive picks beyond the travel time;
//   3. the earliest first start;
//   4. the smallest slot ids, compared need by need in the order the needs are given.
// Idle = span − total length of the picks − (n − 1) × travel, so for one span, fewer idle minutes means
// longer picks (only differs when one teacher offers slots of different lengths).
//
// The search is exact (the problem is NP-hard in general: no greedy rule is both fast and right). Walking a
// schedule in time order, the only rule between consecutive picks is "next start ≥ previous end + travel",
// so for a set of needs placed only the earliest end of the last pick matters. That gives a dynamic
// program over subsets of needs (2^n states, hence ARRANGE_MAX_NEEDS):
// - phase 1 (spansByStart): one sweep over candidate start times S, latest first, keeping for every set
//   of needs its earliest finish when all start at or after S. The best span is the least finish − S;
//   cost candidates × 2^(n−1) whatever the data (12 needs × 40 candidates: ~1M steps, a few ms). Rule 2
//   only matters when a teacher offers slots of different lengths: then a (finish, length) version of the
//   program runs in the windows of best span.
// - phase 2 (smallestIds) fixes needs in input order to their smallest slot id that still completes a
//   schedule of that shape; each check is the program again, confined to [first start, first start +
//   span] and pruned by the time the needs left take at least, so ties (common: teachers share one slot
//   grid) are never enumerated.
// A depth-first branch and bound (fewest candidates first, span bounds) was tried first: on 12 × 40 with
// mixed slot lengths it ran for minutes, since proving "nothing shorter starts here" enumerates orders of
// the same set of needs that the subset states merge into one.

export type ArrangeCandidate = { slotId: number; startsAt: Date; endsAt: Date };

/** One appointment to place: its free candidate slots (any order). key identifies it in the result. */
export type ArrangeNeed = { key: string; candidates: ArrangeCandidate[] };

export type ArrangeInput = {
  needs: ArrangeNeed[];
  /** The family's existing appointments (kept): nothing may overlap them either. */
  busy: Array<{ startsAt: Date; endsAt: Date }>;
  /** Minutes the family needs between two appointments (walking between rooms); 0 allows back-to-back. */
  travelMinutes: number;
  /** no candidate may start before */
  earliest?: Date | null;
  /** no candidate may end after */
  latest?: Date | null;
};

export type ArrangePick = { key: string; slotId: number; startsAt: Date; endsAt: Date };

/** The most needs one call accepts: the search keeps 2^n states per start time (14: ~4× the time of 12). */
export const ARRANGE_MAX_NEEDS = 14;

const MINUTE_MS = 60_000;

/**
 * The best schedule (see the rules at the top of this file) as one pick per need, in time order; `[]` for
 * no needs; `null` when no feasible schedule exists (a need without a usable candidate, or clashes).
 *
 * @throws RangeError for more than ARRANGE_MAX_NEEDS needs, two needs with the same key, a negative or
 *   non-finite travel time, an invalid date, or a candidate or busy time that does not end after it starts.
 */
export function arrangeSchedule(input: ArrangeInput): ArrangePick[] | null {
  const problem = prepare(input);
  if (problem === null) return null;
  if (problem.needs.length === 0) return [];
  const shape = bestShape(problem);
  if (shape === null) return null;
  return smallestIds(problem, shape)
    .sort((a, b) => a.start - b.start)
    .map((c) => ({
      key: input.needs[c.need]?.key ?? '',
      slotId: c.id,
      startsAt: new Date(c.start),
      endsAt: new Date(c.end),
    }));
}

// ── internals ────────────────────────────────────────────────────────────────────────────────────────

/** A usable candidate: times in ms since the epoch, and as indices into the problem's timeline. */
type Cand = {
  need: number;
  id: number;
  start: number;
  end: number;
  length: number;
  from: number;
  to: number;
};

/** Every start and end of the problem, ascending, so that search states are small integers. */
type Timeline = {
  times: number[];
  /** per time index i, the first index at or after times[i] + travel: where a next pick may start */
  next: Int32Array;
};

type Problem = {
  /** per need (input order): usable candidates sorted by start, end, id */
  needs: Cand[][];
  timeline: Timeline;
  travel: number;
  /** every need's candidates share one length: total length is fixed, only spans differ */
  uniform: boolean;
};

/** The best schedule's first start, span and total length of its picks (ms). */
type Shape = { anchor: number; span: number; length: number };

function prepare(input: ArrangeInput): Problem | null {
  if (input.needs.length > ARRANGE_MAX_NEEDS) {
    throw new RangeError(`At most ${ARRANGE_MAX_NEEDS} appointments can be arranged at once`);
  }
  const travelMinutes = input.travelMinutes;
  if (typeof travelMinutes !== 'number' || !Number.isFinite(travelMinutes) || travelMinutes < 0) {
    throw new RangeError('travelMinutes must be a number of minutes, 0 or more');
  }
  const travel = travelMinutes * MINUTE_MS;
  const earliest = input.earliest == null ? -Infinity : ms(input.earliest, 'earliest');
  const latest = input.latest == null ? Infinity : ms(input.latest, 'latest');
  const busy = input.busy.map((b, i) => interval(b, `busy time ${i + 1}`));

  const keys = new Set<string>();
  const needs: Cand[][] = [];
  let usable = true;
  input.needs.forEach((need, index) => {
    if (keys.has(need.key)) throw new RangeError(`Two needs have the key "${need.key}"`);
    keys.add(need.key);
    const seen = new Set<number>();
    const list: Cand[] = [];
    for (const candidate of need.candidates) {
      const { start, end } = interval(candidate, `slot ${candidate.slotId}`);
      if (seen.has(candidate.slotId) || start < earliest || end > latest) continue;
      if (busy.some((b) => start < b.end + travel && b.start < end + travel)) continue;
      seen.add(candidate.slotId);
      list.push({ need: index, id: candidate.slotId, start, end, length: end - start, from: 0, to: 0 });
    }
    if (list.length === 0) usable = false;
    needs.push(list.sort((a, b) => a.start - b.start || a.end - b.end || a.id - b.id));
  });
  if (!usable) return null;
  const uniform = needs.every((list) => list.every((c) => c.length === list[0]?.length));
  return { needs, timeline: timelineOf(needs, travel), travel, uniform };
}

/** The timeline of some candidates; sets their `from` and `to` indices. */
function timelineOf(needs: Cand[][], travel: number): Timeline {
  const all = needs.flat();
  const times = [...new Set(all.flatMap((c) => [c.start, c.end]))].sort((a, b) => a - b);
  const position = new Map(times.map((time, i) => [time, i]));
  for (const c of all) {
    c.from = position.get(c.start) ?? 0;
    c.to = position.get(c.end) ?? 0;
  }
  return { times, next: Int32Array.from(times, (time) => lowerBound(times, time + travel)) };
}

/** Phase 1: the smallest span, then the longest total length, then the earliest first start. */
function bestShape({ needs, timeline, travel, uniform }: Problem): Shape | null {
  const spans = spansByStart(needs, timeline, travel);
  const span = Math.min(...spans.values());
  if (span === Infinity) return null;
  const tied = [...spans].filter(([, s]) => s === span).map(([start]) => start);
  const first = Math.min(...tied);
  // With one slot length per need, the total length is fixed: equal spans mean equal idle time.
  if (uniform)
    return { anchor: first, span, length: needs.reduce((sum, list) => sum + (list[0]?.length ?? 0), 0) };

  // Longest total length among the tied first starts (earliest wins a tie); stop once nothing can be longer.
  const tracks = needs.map((list) => track(list, timeline));
  const longest = needs.reduce((sum, list) => sum + Math.max(...list.map((c) => c.length)), 0);
  let best: Shape = { anchor: first, span, length: -1 };
  for (const anchor of tied.sort((a, b) => a - b)) {
    const length = longestTotal(tracks, { anchor, anchorTaken: false, limit: anchor + span, travel });
    if (length > best.length) best = { anchor, span, length };
    if (best.length === longest) break;
  }
  return best;
}

/**
 * For each candidate start S, the smallest span of a schedule whose picks all start at or after S
 * (Infinity: none). The smallest of these is the best span, and the starts that reach it are exactly the
 * first starts of best schedules (a schedule starting later than S would have a smaller span still).
 *
 * One sweep over start times, latest first. Row S holds, for every set of needs, the earliest end of the
 * last pick when they are all placed starting at or after S (timeline indices). Row S is row S' (the next
 * later start) improved by each candidate c starting at S: for every set holding c's need, c then the
 * rest of the set from the first start ≥ c's end + travel. Rows no later candidate refers to are dropped,
 * so memory stays at a few rows of 2^n entries, and time is (candidates × 2^(n−1)) with no bad cases.
 */
function spansByStart(needs: Cand[][], timeline: Timeline, travel: number): Map<number, number> {
  const { times } = timeline;
  const none = times.length;
  const full = (1 << needs.length) - 1;
  const all = needs.flat();
  const starts = [...new Set(all.map((c) => c.start))].sort((a, b) => a - b);
  const rowOf = (time: number) => lowerBound(starts, time);

  // Row `starts.length` is "after every start": only the empty set is placed (−1: ends before anything).
  const after = new Int32Array(full + 1).fill(none);
  after[0] = -1;
  const byRow = starts.map(() => [] as Array<{ c: Cand; next: number }>);
  const lastUse = new Int32Array(starts.length + 1).fill(starts.length);
  for (const c of all) {
    const row = rowOf(c.start);
    const next = rowOf(c.end + travel);
    byRow[row]?.push({ c, next });
    lastUse[next] = Math.min(lastUse[next] ?? row, row);
  }

  const rows = new Map<number, Int32Array>([[starts.length, after]]);
  const spans = new Map<number, number>();
  for (let row = starts.length - 1; row >= 0; row--) {
    const current = (rows.get(row + 1) ?? after).slice();
    for (const { c, next } of byRow[row] ?? []) {
      const rest = rows.get(next) ?? after;
      const bit = 1 << c.need;
      const low = bit - 1;
      // Every set holding c's need: insert a 1 at bit c.need into each set of the other needs.
      for (let others = 0; others <= full >> 1; others++) {
        const without = ((others & ~low) << 1) | (others & low);
        const end = rest[without] ?? none;
        if (end === none) continue;
        const mask = without | bit;
        const total = end > c.to ? end : c.to;
        if (total < (current[mask] ?? none)) current[mask] = total;
      }
    }
    rows.set(row, current);
    // Drop the rows no candidate still to come (an earlier start) will read.
    if ((lastUse[row + 1] ?? 0) >= row) rows.delete(row + 1);
    for (const { next } of byRow[row] ?? []) if ((lastUse[next] ?? 0) >= row) rows.delete(next);
    const end = current[full] ?? none;
    spans.set(starts[row] ?? 0, end === none ? Infinity : (times[end] ?? Infinity) - (starts[row] ?? 0));
  }
  return spans;
}

/** Phase 2: need by need in input order, the smallest slot id that still completes a best schedule. */
function smallestIds({ needs, travel, uniform }: Problem, shape: Shape): Cand[] {
  const { anchor, span, length } = shape;
  const limit = anchor + span;
  // Copies on a timeline of their own: the window is small, so each check's tables are too.
  const window = needs.map((list) =>
    list.filter((c) => c.start >= anchor && c.end <= limit).map((c) => ({ ...c })),
  );
  const timeline = timelineOf(window, travel);
  const fixed: Cand[] = [];
  window.forEach((list, index) => {
    const pick = [...list]
      .sort((a, b) => a.id - b.id)
      .find((candidate) => {
        if (!fixed.every((f) => compatible(f, candidate, travel))) return false;
        const placed = [...fixed, candidate];
        const rest = window.slice(index + 1).map((other) =>
          track(
            other.filter((c) => placed.every((f) => compatible(f, c, travel))),
            timeline,
          ),
        );
        if (rest.some((t) => t.cands.length === 0)) return false;
        // Within [anchor, limit] with a pick at the anchor the span is the best one: only length is left.
        const options = { anchor, anchorTaken: placed.some((c) => c.start === anchor), limit, travel };
        const fits = earliestFinish(rest, leastTimeLeft(rest, travel), timeline, options) <= limit;
        if (uniform || !fits) return fits;
        const placedLength = placed.reduce((sum, c) => sum + c.length, 0);
        return placedLength + longestTotal(rest, options) >= length;
      });
    // Phase 1 proved a schedule of this shape exists, and each fixed pick keeps one completable.
    if (!pick) throw new Error('arrangeSchedule: lost the best schedule');
    fixed.push(pick);
  });
  return fixed;
}

/** One need's candidates sorted by start, indexed for "the earliest end among those starting ≥ t". */
type Track = {
  cands: Cand[];
  starts: number[];
  /** per timeline index i: the timeline index of the earliest end among candidates starting at ≥ i */
  minEndFrom: Int32Array;
  shortest: number;
};

function track(cands: Cand[], timeline: Timeline): Track {
  const none = timeline.times.length; // past the end: no candidate
  const minEndFrom = new Int32Array(none + 1).fill(none);
  for (const c of cands) minEndFrom[c.from] = Math.min(minEndFrom[c.from] ?? none, c.to);
  for (let i = none - 1; i >= 0; i--)
    minEndFrom[i] = Math.min(minEndFrom[i] ?? none, minEndFrom[i + 1] ?? none);
  const shortest = Math.min(...cands.map((c) => c.length));
  return { cands, starts: cands.map((c) => c.start), minEndFrom, shortest };
}

type PlaceOptions = {
  /** the first start: a pick must start exactly here unless `anchorTaken`; none may start before */
  anchor: number;
  /** a pick placed elsewhere already starts at the anchor */
  anchorTaken: boolean;
  /** no pick may end after this (may be Infinity) */
  limit: number;
  travel: number;
};

/**
 * The earliest end of the last pick over all ways to place one candidate of every track in time order
 * (each starting ≥ the previous end + travel), in ms; Infinity when impossible. Tracks hold only
 * candidates that fit everything placed elsewhere; `least` is leastTimeLeft(tracks, travel). State: per
 * set of needs placed, its earliest finish (a timeline index), so a transition is one table lookup; sets
 * are visited layer by layer (number placed), only those some schedule reaches within the limit.
 */
function earliestFinish(
  tracks: Track[],
  least: Float64Array,
  timeline: Timeline,
  options: PlaceOptions,
): number {
  const { anchor, anchorTaken, limit } = options;
  const { times, next } = timeline;
  const count = tracks.length;
  if (count === 0) return anchorTaken ? -Infinity : Infinity;
  const none = times.length;
  const full = (1 << count) - 1;
  // A set's last pick must end early enough for the needs left to fit before the limit.
  const fits = (end: number, mask: number) => (times[end] ?? Infinity) + (least[mask] ?? 0) <= limit;

  const lastEnd = upperBound(times, limit) - 1; // the last timeline index ≤ limit
  const finish = new Int32Array(full + 1).fill(none);
  let layer: number[] = [];
  const at = lowerBound(times, anchor);
  tracks.forEach((t, j) => {
    let end = t.minEndFrom[at] ?? none;
    // Unless placed elsewhere, the first pick starts exactly at the anchor.
    if (!anchorTaken) end = Math.min(none, ...t.cands.filter((c) => c.start === anchor).map((c) => c.to));
    if (end < none && fits(end, 1 << j)) {
      finish[1 << j] = end;
      layer.push(1 << j);
    }
  });
  for (let placed = 1; placed < count && layer.length > 0; placed++) {
    const reached: number[] = [];
    for (const mask of layer) {
      const from = next[finish[mask] ?? none] ?? none;
      // Forward check: a need that cannot end by the limit from here never will, whatever goes first.
      let open = full & ~mask;
      for (let rest = open; rest !== 0; rest &= rest - 1) {
        const end = tracks[31 - Math.clz32(rest & -rest)]?.minEndFrom[from] ?? none;
        if (end > lastEnd) open = 0;
      }
      for (; open !== 0; open &= open - 1) {
        const bit = open & -open;
        const end = tracks[31 - Math.clz32(bit)]?.minEndFrom[from] ?? none;
        const grown = mask | bit;
        const known = finish[grown] ?? none;
        if (end >= known || !fits(end, grown)) continue;
        if (known === none) reached.push(grown);
        finish[grown] = end;
      }
    }
    layer = reached;
  }
  return times[finish[full] ?? none] ?? Infinity;
}

/**
 * Per set of needs placed, the least time the needs left still take after its last pick (each: travel,
 * then its shortest slot): the bound that prunes most states.
 */
function leastTimeLeft(tracks: Track[], travel: number): Float64Array {
  const full = (1 << tracks.length) - 1;
  const least = new Float64Array(full + 1);
  for (let mask = full - 1; mask >= 0; mask--) {
    const missing = full & ~mask;
    const low = missing & -missing;
    least[mask] = (least[mask | low] ?? 0) + travel + (tracks[31 - Math.clz32(low)]?.shortest ?? 0);
  }
  return least;
}

type Finish = { end: number; length: number };

/**
 * Like earliestFinish, but the longest total length of the picks over all ways that end by the limit
 * (-Infinity when none). State: per set of needs placed, its (finish, length) pairs no other pair beats on
 * both (the lengths differ only where a teacher offers slots of different lengths).
 */
function longestTotal(tracks: Track[], options: PlaceOptions): number {
  const { anchor, anchorTaken, limit, travel } = options;
  const count = tracks.length;
  if (count === 0) return anchorTaken ? 0 : -Infinity;
  const full = (1 << count) - 1;
  const least = leastTimeLeft(tracks, travel);
  const states: Array<Finish[] | undefined> = new Array(full + 1);
  states[0] = [{ end: -Infinity, length: 0 }];
  for (let mask = 0; mask < full; mask++) {
    const here = states[mask];
    if (!here) continue;
    for (let j = 0; j < count; j++) {
      const bit = 1 << j;
      const t = tracks[j];
      if (mask & bit || !t) continue;
      const next = mask | bit;
      const latest = limit - (least[next] ?? 0);
      for (const state of here) {
        const exact = mask === 0 && !anchorTaken;
        const from = mask === 0 ? anchor : state.end + travel;
        for (let index = lowerBound(t.starts, from); index < t.cands.length; index++) {
          const c = t.cands[index];
          if (!c || c.start > latest || (exact && c.start > anchor)) break;
          if (c.end <= latest) states[next] = addFinish(states[next], c.end, state.length + c.length);
        }
      }
    }
  }
  return Math.max(...(states[full] ?? []).map((f) => f.length));
}

/** Adds a (finish, length) pair to a set unless one there ends no later and is no shorter. */
function addFinish(set: Finish[] | undefined, end: number, length: number): Finish[] {
  if (!set) return [{ end, length }];
  if (set.some((f) => f.end <= end && f.length >= length)) return set;
  const kept = set.filter((f) => !(end <= f.end && length >= f.length));
  kept.push({ end, length });
  return kept;
}

/** First index whose value is > target (values ascending). */
function upperBound(values: number[], target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] ?? Infinity) <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is ≥ target (values ascending). */
function lowerBound(values: number[], target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] ?? Infinity) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function compatible(a: Cand, b: Cand, travel: number): boolean {
  return a.end + travel <= b.start || b.end + travel <= a.start;
}

function ms(value: Date, what: string): number {
  const time = value instanceof Date ? value.getTime() : Number.NaN;
  if (!Number.isFinite(time)) throw new RangeError(`Invalid ${what}: expected a valid Date`);
  return time;
}

function interval(value: { startsAt: Date; endsAt: Date }, what: string): { start: number; end: number } {
  const start = ms(value.startsAt, `${what} start`);
  const end = ms(value.endsAt, `${what} end`);
  if (end <= start) throw new RangeError(`Invalid ${what}: it must end after it starts`);
  return { start, end };
}
