// A small Prometheus registry (text exposition format 0.0.4): what an operator graphs and alerts on —
// requests by route and status class with their latency, unhandled errors, the outboxes' backlog and the
// process. Routes are labelled by their pattern (`/api/events/view`), never by the raw URL, so the label
// set stays bounded whatever clients send.

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Series = { count: number; sum: number; buckets: number[] };

const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (pairs: Record<string, string>) =>
  `{${Object.entries(pairs)
    .map(([key, value]) => `${key}="${escapeLabel(value)}"`)
    .join(',')}}`;

export class Metrics {
  private readonly requests = new Map<string, { pairs: Record<string, string>; series: Series }>();
  private errors = 0;

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

  /** The exposition text; `gauges` are read at scrape time (outbox backlog, process). */
  render(
    gauges: Array<{ name: string; help: string; value: number; labels?: Record<string, string> }>,
  ): string {
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
    );
    const seen = new Set<string>();
    for (const gauge of gauges) {
      if (!seen.has(gauge.name)) {
        lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`);
        seen.add(gauge.name);
      }
      lines.push(`${gauge.name}${gauge.labels ? labels(gauge.labels) : ''} ${gauge.value}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
