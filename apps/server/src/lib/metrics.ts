// A small Prometheus registry (text exposition format 0.0.4): what an operator graphs and alerts on —
// requests by route and status class with their latency (its count is the request rate), unhandled
// errors, booking conflicts, and gauges read at scrape time (pool, outboxes, process). Routes are labelled
// by their pattern (`/api/events/view`), never by the raw URL, so the label set stays bounded whatever
// clients send.

import { type ELDHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Series = { count: number; sum: number; buckets: number[] };
/** A figure read at scrape time. */
export type Gauge = { name: string; help: string; value: number; labels?: Record<string, string> };

const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (pairs: Record<string, string>) =>
  `{${Object.entries(pairs)
    .map(([key, value]) => `${key}="${escapeLabel(value)}"`)
    .join(',')}}`;

export class Metrics {
  private readonly requests = new Map<string, { pairs: Record<string, string>; series: Series }>();
  private errors = 0;
  /** Booking conflicts (a family or admin told 409: the slot was just taken, a rule broken) by route. */
  private readonly conflicts = new Map<string, number>();
  private loopDelay: ELDHistogram | undefined;

  /** Starts sampling the event loop's delay; the returned function stops it (the app's onClose). */
  watchEventLoop(): () => void {
    const histogram = monitorEventLoopDelay({ resolution: 20 });
    histogram.enable();
    this.loopDelay = histogram;
    return () => histogram.disable();
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const pairs = { method, route, status: `${Math.floor(status / 100)}xx` };
    const key = JSON.stringify(pairs);
    let entry = this.requests.get(key);
    if (!entry) {
      entry = { pairs, series: { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) } };
      this.requests.set(key, entry);
    }
    entry.series.count += 1;
    entry.series.sum += seconds;
    BUCKETS.forEach((bound, index) => {
      if (seconds <= bound && entry) entry.series.buckets[index] = (entry.series.buckets[index] ?? 0) + 1;
    });
  }

  countError(): void {
    this.errors += 1;
  }

  /** A route that can answer a booking conflict: shown at 0 from the start, so a rate needs no first one. */
  declareBookingConflictRoute(route: string): void {
    if (!this.conflicts.has(route)) this.conflicts.set(route, 0);
  }

  countBookingConflict(route: string): void {
    this.conflicts.set(route, (this.conflicts.get(route) ?? 0) + 1);
  }

  /** The exposition text: the counters, the caller's `gauges` (pool, outboxes), then the process. */
  render(gauges: Gauge[]): string {
    const lines: string[] = [
      '# HELP parley_http_request_duration_seconds Time to answer a request, by route pattern and status class.',
      '# TYPE parley_http_request_duration_seconds histogram',
    ];
    for (const { pairs, series } of this.requests.values()) {
      BUCKETS.forEach((bound, index) => {
        lines.push(
          `parley_http_request_duration_seconds_bucket${labels({ ...pairs, le: String(bound) })} ${series.buckets[index]}`,
        );
      });
      lines.push(
        `parley_http_request_duration_seconds_bucket${labels({ ...pairs, le: '+Inf' })} ${series.count}`,
      );
      lines.push(`parley_http_request_duration_seconds_sum${labels(pairs)} ${series.sum}`);
      lines.push(`parley_http_request_duration_seconds_count${labels(pairs)} ${series.count}`);
    }
    lines.push(
      '# HELP parley_unhandled_errors_total Errors answered 500 or failing a worker pass.',
      '# TYPE parley_unhandled_errors_total counter',
      `parley_unhandled_errors_total ${this.errors}`,
      '# HELP parley_booking_conflicts_total Booking changes refused 409 (a slot just taken, a rule broken).',
      '# TYPE parley_booking_conflicts_total counter',
    );
    for (const [route, count] of this.conflicts)
      lines.push(`parley_booking_conflicts_total${labels({ route })} ${count}`);
    const memory = process.memoryUsage();
    const processGauges: Gauge[] = [
      { name: 'parley_process_resident_memory_bytes', help: 'Resident set size.', value: memory.rss },
      { name: 'parley_process_heap_used_bytes', help: 'V8 heap in use.', value: memory.heapUsed },
      {
        name: 'parley_process_uptime_seconds',
        help: 'Seconds since the process started.',
        value: process.uptime(),
      },
      ...(this.loopDelay
        ? [
            {
              name: 'parley_event_loop_delay_p99_seconds',
              help: 'The 99th percentile of event loop delay since start.',
              value: this.loopDelay.percentile(99) / 1e9,
            },
          ]
        : []),
    ];
    const seen = new Set<string>();
    for (const gauge of [...gauges, ...processGauges]) {
      if (!seen.has(gauge.name)) {
        lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`);
        seen.add(gauge.name);
      }
      lines.push(`${gauge.name}${gauge.labels ? labels(gauge.labels) : ''} ${gauge.value}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
