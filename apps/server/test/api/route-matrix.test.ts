import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueIp } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import { seedMatrix } from './route-matrix-fixture';
import {
  CALLERS,
  type Caller,
  type Expect,
  GROUP,
  type Input,
  RULES,
  type Rule,
  SCHOOL_OF,
} from './route-rules';

// Issue 11: every route of the API (from the OpenAPI document, so a new route cannot be left out) called by
// every caller — anonymous, each role of school A and of school B, a personal link of each — with school
// A's ids. Each answer's status is the one route-rules.ts declares, and no answer carries a byte of the
// other school's data (its marker word, event and ticket codes, its callers' tokens) in body or headers.

type Route = { method: string; path: string; key: string; op: OpenApiOperation };
type OpenApiSchema = {
  type?: string | string[];
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
};
type OpenApiOperation = {
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  requestBody?: { content?: Record<string, { schema: OpenApiSchema }> };
};
type Answer = { key: string; caller: Caller; status: number; text: string; rule: Rule; input: Input };

/** The status a rule gives a caller: the caller's own, else its group's, else everyone's. */
function expected(rule: Expect, caller: Caller): number | undefined {
  return rule[caller] ?? rule[GROUP[caller] as keyof Expect] ?? rule.all;
}

describe('the route × caller matrix', () => {
  let t: TestApp;
  let matrix: Awaited<ReturnType<typeof seedMatrix>>;
  let routes: Route[];
  const answers: Answer[] = [];
  const wrong: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    matrix = await seedMatrix(t);
    const doc = t.app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
    routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          key: `${method.toUpperCase()} ${path}`,
          op,
        })),
      );
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('has a rule for every route of the API, and none for a route that is gone', () => {
    const keys = routes.map((route) => route.key);
    expect(keys.length).toBeGreaterThan(90);
    expect(
      keys.filter((key) => !(key in RULES)),
      'routes without a rule in route-rules.ts',
    ).toEqual([]);
    expect(
      Object.keys(RULES).filter((key) => !keys.includes(key)),
      'rules for routes that no longer exist',
    ).toEqual([]);
    for (const [key, rule] of Object.entries(RULES))
      for (const caller of CALLERS)
        expect(expected(rule.expect, caller), `${key}: no status for ${caller}`).toBeTypeOf('number');
  });

  it('answers every caller with the declared status', async () => {
    let requests = 0;
    for (const route of routes) {
      const rule = RULES[route.key];
      if (!rule) continue; // reported by the test above
      const { fresh, spend } = matrix.freshForRoute();
      for (const caller of CALLERS) {
        const input: Input = rule.input ? await rule.input(matrix.schoolA(fresh), caller) : {};
        const query = new URLSearchParams(
          Object.entries(input.query ?? {}).map(([name, value]): [string, string] => [name, String(value)]),
        ).toString();
        const response = await t.app.inject({
          method: route.method as 'GET' | 'POST',
          url: `${route.path}${query ? `?${query}` : ''}`,
          remoteAddress: uniqueIp(),
          headers: {
            ...matrix.headersOf(caller),
            ...(input.body !== undefined && { 'content-type': 'application/json' }),
          },
          ...(input.body !== undefined && { payload: JSON.stringify(input.body) }),
        });
        requests += 1;
        const status = response.statusCode;
        if (status < 300) spend();
        const want = expected(rule.expect, caller);
        if (status !== want)
          wrong.push(
            `${route.key} as ${caller}: ${status}, declared ${want} — ${response.body.slice(0, 160)}`,
          );
        answers.push({
          key: route.key,
          caller,
          status,
          rule,
          input,
          text: `${JSON.stringify(response.headers)}\n${response.body}`,
        });
      }
      await matrix.reset();
    }
    console.log(
      `route-matrix: ${routes.length} routes × ${CALLERS.length} callers = ${requests} requests, ${wrong.length} unexpected statuses`,
    );
    expect(wrong).toEqual([]);
  }, 600_000);

  it("shows no caller a byte of the other school's data", async () => {
    expect(answers.length).toBeGreaterThan(0);
    const marks = { A: await matrix.markers('A'), B: await matrix.markers('B') };
    const leaks: string[] = [];
    const anonymous = new Map(
      answers.filter((answer) => answer.caller === 'anonymous').map((answer) => [answer.key, answer]),
    );
    for (const answer of answers) {
      const school = SCHOOL_OF[answer.caller];
      // Anonymous and school A see nothing of B; B sees nothing of A unless the route opens it (below).
      const other = school === 'B' ? 'A' : 'B';
      if (other === 'A' && answer.rule.openTo === 'credential') continue;
      if (other === 'A' && answer.rule.openTo === 'public') {
        const open = anonymous.get(answer.key);
        if (open && open.status === answer.status && body(open.text) === body(answer.text)) continue;
      }
      const text = answer.rule.echoes ? withoutInput(answer.text, answer.input) : answer.text;
      const lower = text.toLowerCase();
      const found = marks[other].filter((mark) =>
        mark === mark.toLowerCase() ? lower.includes(mark) : text.includes(mark),
      );
      if (found.length > 0)
        leaks.push(
          `${answer.key} as ${answer.caller} (${answer.status}) shows ${other}'s ${found.join(', ')}`,
        );
    }
    console.log(
      `route-matrix: ${answers.length} answers checked against ${marks.A.length + marks.B.length} markers, ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
  });
});

/** An answer's text without the texts of its input (each line and comma-separated field of them). */
function withoutInput(text: string, input: Input): string {
  const pieces = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const piece of value.split(/[\n,]/)) if (piece.length > 3) pieces.add(piece);
    } else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(input);
  let rest = text;
  for (const piece of [...pieces].sort((x, y) => y.length - x.length)) rest = rest.split(piece).join('');
  return rest;
}

/** The body of an answer's recorded text (headers first, then the body). */
const body = (text: string) => text.slice(text.indexOf('\n') + 1);
