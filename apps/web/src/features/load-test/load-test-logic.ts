import type { LoadTestPoint, LoadTestRun } from '@parley/domain/load-test';

// The load-test page's pure parts: the chart's scales and lines, and the figures in words.

export type Series = 'p50Ms' | 'p99Ms';

/** A round ceiling for an axis: 1, 2, 5 × a power of ten, at least `min`. */
export function niceCeiling(value: number, min = 1): number {
  const target = Math.max(value, min);
  const power = 10 ** Math.floor(Math.log10(target));
  const step = [1, 2, 5, 10].find((m) => m * power >= target) ?? 10;
  return step * power;
}

/** The chart's ranges: seconds shown (at least 10), bookings per second and milliseconds at the top. */
export function chartScale(series: LoadTestPoint[], seconds: number) {
  const shown = Math.max(10, series.length, Math.ceil(seconds));
  const bookings = niceCeiling(
    series.reduce((most, point) => Math.max(most, point.bookings), 0),
    5,
  );
  const ms = niceCeiling(
    series.reduce((most, point) => Math.max(most, point.p99Ms ?? 0, point.p50Ms ?? 0), 0),
    10,
  );
  const every = niceCeiling(shown / 6, 1);
  const secondTicks = Array.from({ length: Math.floor(shown / every) + 1 }, (_, i) => i * every);
  return { seconds: shown, bookings, ms, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1], secondTicks };
}

/** An SVG path through the seconds that have a value (a second with none breaks the line). */
export function seriesPath(
  series: LoadTestPoint[],
  key: Series,
  x: (point: LoadTestPoint) => number,
  y: (value: number) => number,
): string {
  let path = '';
  let drawing = false;
  for (const point of series) {
    const value = point[key];
    if (value === null) {
      drawing = false;
      continue;
    }
    path += `${drawing ? 'L' : 'M'}${x(point).toFixed(1)},${y(value).toFixed(1)}`;
    drawing = true;
  }
  return path;
}

export const whole = (n: number) => n.toLocaleString('en-US');

/** Milliseconds as a short label. */
export const msLabel = (value: number | null) =>
  value === null ? '—' : value >= 1000 ? `${Number((value / 1000).toFixed(1))} s` : `${Math.round(value)} ms`;

/** The headline figures of a run, in the order the page shows them. */
export function figureTiles(run: LoadTestRun): Array<{ label: string; value: string }> {
  const { figures } = run;
  const rate = figures.seconds > 0 ? figures.bookings / figures.seconds : 0;
  return [
    { label: 'Parents done', value: `${whole(figures.parentsDone)} of ${whole(run.parents)}` },
    { label: 'Appointments booked', value: whole(figures.bookings) },
    { label: 'Bookings per second', value: rate.toFixed(1) },
    { label: 'p50 wait', value: msLabel(figures.p50Ms) },
    { label: 'p99 wait', value: msLabel(figures.p99Ms) },
    { label: 'Conflicts resolved', value: whole(figures.conflicts) },
  ];
}
