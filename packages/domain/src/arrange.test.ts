import { describe, expect, it } from 'vitest';
import {
  ARRANGE_MAX_NEEDS,
  type ArrangeCandidate,
  type ArrangeInput,
  type ArrangeNeed,
  type ArrangePick,
  arrangeSchedule,
} from './arrange';

// Times are minutes after 16:00Z on a school evening; none of this depends on the host's zone.

const MINUTE = 60_000;
const BASE = Date.UTC(2026, 2, 12, 16, 0);
const at = (minute: number) => new Date(BASE + minute * MINUTE);
const slot = (slotId: number, start: number, length = 10): ArrangeCandidate => ({
  slotId,
  startsAt: at(start),
  endsAt: at(start + length),
});
const need = (key: string, ...candidates: ArrangeCandidate[]): ArrangeNeed => ({ key, candidates });
const arrange = (needs: ArrangeNeed[], extra: Partial<ArrangeInput> = {}) =>
  arrangeSchedule({ needs, busy: [], travelMinutes: 0, ...extra });

/** key → slot id, for compact expectations. */
const ids = (picks: ArrangePick[] | null) =>
  picks === null ? null : Object.fromEntries(picks.map((p) => [p.key, p.slotId]));
const span = (picks: ArrangePick[]) =>
  (Math.max(...picks.map((p) => p.endsAt.getTime())) - Math.min(...picks.map((p) => p.startsAt.getTime()))) /
  MINUTE;

/** Every rule of a feasible schedule, checked from scratch. */
function expectFeasible(input: ArrangeInput, picks: ArrangePick[]) {
  expect(picks.map((p) => p.key).sort()).toEqual(input.needs.map((n) => n.key).sort());
  const travel = input.travelMinutes * MINUTE;
  for (const pick of picks) {
    const own = input.needs.find((n) => n.key === pick.key)?.candidates ?? [];
    const source = own.find((c) => c.slotId === pick.slotId);
    expect(source?.startsAt.getTime()).toBe(pick.startsAt.getTime());
    expect(source?.endsAt.getTime()).toBe(pick.endsAt.getTime());
    if (input.earliest) expect(pick.startsAt.getTime()).toBeGreaterThanOrEqual(input.earliest.getTime());
    if (input.latest) expect(pick.endsAt.getTime()).toBeLessThanOrEqual(input.latest.getTime());
    for (const busy of input.busy) expect(apart(pick, busy, travel)).toBe(true);
  }
  for (let i = 1; i < picks.length; i++) {
    const [before, after] = [picks[i - 1], picks[i]];
    if (!before || !after) continue;
    expect(after.startsAt.getTime() - before.endsAt.getTime()).toBeGreaterThanOrEqual(travel);
  }
}

type Span = { startsAt: Date; endsAt: Date };
const apart = (a: Span, b: Span, travel: number) =>
  a.endsAt.getTime() + travel <= b.startsAt.getTime() || b.endsAt.getTime() + travel <= a.startsAt.getTime();

describe('arrangeSchedule: the compact schedule', () => {
  it('books nothing for no needs', () => {
    expect(arrange([])).toEqual([]);
  });

  it('books the earliest slot for a single teacher', () => {
    expect(ids(arrange([need('maths', slot(3, 40), slot(1, 20), slot(2, 30))]))).toEqual({ maths: 1 });
  });

  it('packs teachers back to back and returns the picks in time order with their own times', () => {
    const needs = [
      need('maths', slot(1, 0), slot(2, 50), slot(3, 100)),
      need('english', slot(11, 30), slot(12, 60), slot(13, 90)),
      need('science', slot(21, 40), slot(22, 70), slot(23, 120)),
    ];
    const picks = arrange(needs);
    // 16:30–17:00 and 16:40–17:10 are equally tight: the earlier wins.
    expect(picks?.map((p) => [p.key, p.slotId])).toEqual([
      ['english', 11],
      ['science', 21],
      ['maths', 2],
    ]);
    expect(picks?.[0]?.startsAt.toISOString()).toBe('2026-03-12T16:30:00.000Z');
    expect(picks?.[2]?.endsAt.toISOString()).toBe('2026-03-12T17:00:00.000Z');
    if (picks) expect(span(picks)).toBe(30);
  });

  it('prefers a later, tighter schedule over an early, loose one', () => {
    const needs = [need('a', slot(1, 0), slot(2, 100)), need('b', slot(11, 30), slot(12, 110))];
    expect(ids(arrange(needs))).toEqual({ a: 2, b: 12 });
  });

  it('never books two appointments at once, even a slot offered to two needs', () => {
    // Two children with the same teacher: one slot cannot serve both.
    const shared = slot(7, 0);
    const needs = [need('alice', shared, slot(8, 10)), need('bob', shared)];
    expect(ids(arrange(needs))).toEqual({ alice: 8, bob: 7 });
    expect(arrange([need('alice', shared), need('bob', shared)])).toBeNull();
  });

  it('ignores a slot listed twice for one need', () => {
    expect(ids(arrange([need('a', slot(1, 0), slot(1, 0)), need('b', slot(2, 10))]))).toEqual({ a: 1, b: 2 });
  });
});

describe('arrangeSchedule: travel between rooms', () => {
  const needs = [
    need('maths', slot(1, 0), slot(2, 15)),
    need('english', slot(11, 10), slot(12, 20), slot(13, 30)),
  ];

  it('allows back-to-back appointments without travel time', () => {
    expect(ids(arrange(needs))).toEqual({ maths: 1, english: 11 });
  });

  it('keeps at least the travel time between appointments, and exactly that is enough', () => {
    // 16:00 + 16:10 is too close; 16:15–16:25 then 16:30 leaves exactly 5 minutes and is the tightest.
    expect(ids(arrange(needs, { travelMinutes: 5 }))).toEqual({ maths: 2, english: 13 });
    const tight = arrange([need('a', slot(1, 0)), need('b', slot(2, 15), slot(3, 14))], { travelMinutes: 5 });
    expect(ids(tight)).toEqual({ a: 1, b: 2 });
  });

  it('gives up when no two slots are far enough apart', () => {
    expect(arrange([need('a', slot(1, 0)), need('b', slot(2, 12))], { travelMinutes: 5 })).toBeNull();
  });

  it('does not care where the idle time falls: b at 12 or 15 leaves the same idle time, ids decide', () => {
    const input = [need('a', slot(1, 0)), need('b', slot(12, 12), slot(11, 15)), need('c', slot(21, 30))];
    expect(ids(arrange(input, { travelMinutes: 2 }))).toEqual({ a: 1, b: 11, c: 21 });
  });
});

describe('arrangeSchedule: the family’s existing appointments', () => {
  it('keeps the travel time away from busy times; exactly the travel time is enough', () => {
    const busy = [{ startsAt: at(30), endsAt: at(40) }];
    // 20–30 touches the busy time, 42 is 2 minutes after it, 45 is 5 minutes after it.
    const needs = [need('a', slot(1, 20), slot(2, 42), slot(3, 45), slot(4, 100))];
    expect(ids(arrange(needs, { busy, travelMinutes: 5 }))).toEqual({ a: 3 });
    expect(ids(arrange(needs, { busy, travelMinutes: 0 }))).toEqual({ a: 1 });
    expect(ids(arrange(needs, { busy: [{ startsAt: at(25), endsAt: at(35) }] }))).toEqual({ a: 2 });
  });

  it('arranges around a busy time in the middle of the evening', () => {
    const busy = [{ startsAt: at(20), endsAt: at(30) }];
    const needs = [need('a', slot(1, 10), slot(2, 30), slot(3, 60)), need('b', slot(11, 15), slot(12, 40))];
    // 10–20 + 30–40 would be tight but b's only slots are 15 (clashes) and 40: so 30–40 then 40–50.
    expect(ids(arrange(needs, { busy }))).toEqual({ a: 2, b: 12 });
  });

  it('gives up when busy times cover every slot of a need', () => {
    const busy = [{ startsAt: at(0), endsAt: at(60) }];
    expect(arrange([need('a', slot(1, 0), slot(2, 50))], { busy })).toBeNull();
  });
});

describe('arrangeSchedule: earliest and latest', () => {
  const needs = [need('a', slot(1, 0), slot(2, 30), slot(3, 60)), need('b', slot(11, 10), slot(12, 40))];

  it('books nothing starting before earliest or ending after latest; the bounds themselves are allowed', () => {
    expect(ids(arrange(needs))).toEqual({ a: 1, b: 11 });
    expect(ids(arrange(needs, { earliest: at(30) }))).toEqual({ a: 2, b: 12 });
    expect(ids(arrange(needs, { earliest: at(31) }))).toEqual({ a: 3, b: 12 });
    expect(ids(arrange(needs, { earliest: at(30), latest: at(50) }))).toEqual({ a: 2, b: 12 });
    expect(arrange(needs, { earliest: at(30), latest: at(49) })).toBeNull();
  });

  it('treats null bounds as none', () => {
    expect(ids(arrange(needs, { earliest: null, latest: null }))).toEqual({ a: 1, b: 11 });
  });

  it('returns null when the window is empty or inverted', () => {
    expect(arrange(needs, { earliest: at(61) })).toBeNull();
    expect(arrange(needs, { earliest: at(40), latest: at(20) })).toBeNull();
  });
});

describe('arrangeSchedule: ties', () => {
  it('prefers fewer idle minutes when spans are equal (a teacher with two slot lengths)', () => {
    // b at 0–5; a at 10–20 (idle 5) or 15–20 (idle 10): same span 0–20. The longer slot has the larger id.
    const needs = [need('a', slot(1, 15, 5), slot(2, 10, 10)), need('b', slot(11, 0, 5))];
    expect(ids(arrange(needs))).toEqual({ a: 2, b: 11 });
  });

  it('prefers the earliest first start when span and idle time are equal', () => {
    const needs = [need('a', slot(1, 60), slot(2, 0)), need('b', slot(11, 70), slot(12, 10))];
    expect(ids(arrange(needs))).toEqual({ a: 2, b: 12 });
  });

  it('then the smallest slot ids, need by need in the order given, whatever their times', () => {
    // Either a at 0 (id 10) and b at 10 (id 21), or a at 10 (id 11) and b at 0 (id 20).
    const a = need('a', slot(10, 0), slot(11, 10));
    const b = need('b', slot(21, 10), slot(20, 0));
    expect(ids(arrange([a, b]))).toEqual({ a: 10, b: 21 });
    expect(ids(arrange([b, a]))).toEqual({ a: 11, b: 20 });
  });

  it('is deterministic whatever the order of candidates and busy times', () => {
    const random = prng(7);
    const input = randomInput(random, { needs: 6, candidates: 8, grid: true });
    const expected = ids(arrangeSchedule(input));
    expect(expected).not.toBeNull();
    for (let round = 0; round < 10; round++) {
      const shuffled: ArrangeInput = {
        ...input,
        needs: input.needs.map((n) => ({ ...n, candidates: shuffle(random, n.candidates) })),
        busy: shuffle(random, input.busy),
      };
      expect(ids(arrangeSchedule(shuffled))).toEqual(expected);
    }
  });
});

describe('arrangeSchedule: infeasible', () => {
  it('returns null when a need has no candidate', () => {
    expect(arrange([need('a', slot(1, 0)), need('b')])).toBeNull();
  });

  it('returns null when more teachers than free times (12 teachers, the same 11 slots)', () => {
    const needs = Array.from({ length: 12 }, (_, i) =>
      need(`t${i}`, ...Array.from({ length: 11 }, (_, j) => slot(i * 100 + j, j * 10))),
    );
    expect(arrange(needs)).toBeNull();
  });
});

describe('arrangeSchedule: bad input', () => {
  it('refuses two needs with one key, a bad travel time, invalid dates and empty slots', () => {
    expect(() => arrange([need('a', slot(1, 0)), need('a', slot(2, 10))])).toThrow(RangeError);
    expect(() => arrange([need('a', slot(1, 0))], { travelMinutes: -1 })).toThrow(RangeError);
    expect(() => arrange([need('a', slot(1, 0))], { travelMinutes: Number.NaN })).toThrow(RangeError);
    expect(() => arrange([need('a', slot(1, 0))], { earliest: new Date(Number.NaN) })).toThrow(RangeError);
    expect(() => arrange([need('a', { slotId: 1, startsAt: at(10), endsAt: at(10) })])).toThrow(RangeError);
    const busy = [{ startsAt: at(10), endsAt: at(0) }];
    expect(() => arrange([need('a', slot(1, 0))], { busy })).toThrow(RangeError);
  });

  it(`refuses more than ${ARRANGE_MAX_NEEDS} needs`, () => {
    const needs = Array.from({ length: ARRANGE_MAX_NEEDS + 1 }, (_, i) => need(`t${i}`, slot(i, i * 10)));
    expect(() => arrange(needs)).toThrow(RangeError);
    expect(arrange(needs.slice(0, ARRANGE_MAX_NEEDS))).toHaveLength(ARRANGE_MAX_NEEDS);
  });
});

describe('arrangeSchedule is optimal (against a brute-force reference)', () => {
  it('matches exhaustive search on 400 random small instances', () => {
    const random = prng(20260312);
    let feasible = 0;
    for (let round = 0; round < 400; round++) {
      const input = randomInput(random, {
        needs: 1 + Math.floor(random() * 4),
        candidates: 1 + Math.floor(random() * 6),
        grid: random() < 0.5,
      });
      const picks = arrangeSchedule(input);
      expect(ids(picks), `round ${round}`).toEqual(ids(bruteForce(input)));
      if (picks) {
        expectFeasible(input, picks);
        feasible++;
      }
    }
    // The instances must exercise both outcomes for the comparison to mean anything.
    expect(feasible).toBeGreaterThan(100);
    expect(feasible).toBeLessThan(390);
  });

  it('matches exhaustive search on larger instances (6–7 needs × 6–9 candidates)', () => {
    const random = prng(42);
    let feasible = 0;
    for (let round = 0; round < 30; round++) {
      const input = randomInput(random, {
        needs: 6 + (round % 2),
        candidates: 6 + Math.floor(random() * 4),
        grid: round % 3 !== 0,
      });
      const picks = arrangeSchedule(input);
      expect(ids(picks), `round ${round}`).toEqual(ids(bruteForce(input)));
      if (picks) feasible++;
    }
    expect(feasible).toBeGreaterThan(10);
  });

  it('finishes 12 teachers × 40 free slots each (measured: a few ms; no timing asserted here)', () => {
    // 12 × 40 on a shared 5-minute grid with 5 minutes' travel, and with mixed slot lengths: the sizes the
    // product promises to arrange quickly (measured 3–10 ms each on one core of the dev machine).
    for (const [seed, grid] of [
      [1, true],
      [2, false],
    ] as const) {
      const random = prng(seed);
      const input = randomInput(random, { needs: 12, candidates: 40, grid, spread: 400 });
      const picks = arrangeSchedule(input);
      expect(picks).toHaveLength(12);
      if (picks) expectFeasible(input, picks);
    }
  });
});

// ── helpers ──────────────────────────────────────────────────────────────────────────────────────────

/** mulberry32: a small seeded PRNG, so every run tests the same instances. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffle<T>(random: () => number, items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * Random needs in an evening of `spread` minutes: on a 5-minute grid (each teacher one slot length, as
 * in real evenings) or at any minute with any length 3–15; slot ids unique and unrelated to time; plus
 * random travel, busy times and window.
 */
function randomInput(
  random: () => number,
  options: { needs: number; candidates: number; grid: boolean; spread?: number },
): ArrangeInput {
  const spread = options.spread ?? 90;
  const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)] as T;
  const usedIds = new Set<number>();
  const freshId = () => {
    let id = 1 + Math.floor(random() * 100_000);
    while (usedIds.has(id)) id++;
    usedIds.add(id);
    return id;
  };
  const needs = Array.from({ length: options.needs }, (_, i) => {
    const length = pick([5, 10, 15]);
    const candidates = Array.from({ length: options.candidates }, () => {
      const own = options.grid ? length : 3 + Math.floor(random() * 13);
      const start = options.grid ? 5 * Math.floor((random() * spread) / 5) : Math.floor(random() * spread);
      return slot(freshId(), start, own);
    });
    return need(`need-${i}`, ...candidates);
  });
  const busy = Array.from({ length: Math.floor(random() * 3) }, () => {
    const start = Math.floor(random() * spread);
    return { startsAt: at(start), endsAt: at(start + 5 + Math.floor(random() * 10)) };
  });
  const earliest = random() < 0.3 ? at(Math.floor(random() * 20)) : null;
  const latest = random() < 0.3 ? at(spread - Math.floor(random() * 20)) : null;
  return { needs, busy, travelMinutes: pick([0, 0, 2, 5]), earliest, latest };
}

/**
 * Every combination of one candidate per need, written straight from the rules: feasible ones ranked by
 * span, idle minutes, first start, then slot ids need by need.
 */
function bruteForce(input: ArrangeInput): ArrangePick[] | null {
  const travel = input.travelMinutes * MINUTE;
  const usable = input.needs.map((n) =>
    n.candidates.filter(
      (c) =>
        (!input.earliest || c.startsAt >= input.earliest) &&
        (!input.latest || c.endsAt <= input.latest) &&
        input.busy.every((b) => apart(c, b, travel)),
    ),
  );
  let best: { rank: number[]; picks: ArrangeCandidate[] } | null = null;
  const chosen: ArrangeCandidate[] = [];
  const walk = (index: number) => {
    if (index === usable.length) {
      const starts = chosen.map((c) => c.startsAt.getTime());
      const total = chosen.reduce((sum, c) => sum + c.endsAt.getTime() - c.startsAt.getTime(), 0);
      const first = Math.min(...starts);
      const spanMs = Math.max(...chosen.map((c) => c.endsAt.getTime())) - first;
      const idle = spanMs - total - (chosen.length - 1) * travel;
      const rank = [spanMs, idle, first, ...chosen.map((c) => c.slotId)];
      if (!best || compareRanks(rank, best.rank) < 0) best = { rank, picks: [...chosen] };
      return;
    }
    for (const candidate of usable[index] ?? []) {
      if (!chosen.every((c) => apart(c, candidate, travel))) continue;
      chosen.push(candidate);
      walk(index + 1);
      chosen.pop();
    }
  };
  if (usable.length === 0) return [];
  walk(0);
  const found = best as { rank: number[]; picks: ArrangeCandidate[] } | null;
  if (!found) return null;
  return found.picks
    .map((c, i) => ({
      key: input.needs[i]?.key ?? '',
      slotId: c.slotId,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
    }))
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
