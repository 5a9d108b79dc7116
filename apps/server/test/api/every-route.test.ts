import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES } from '../../src/plugins/public-routes';
import { type Evening, evening, sessionFor } from '../booking/booking-helpers';
import { bearer, uniqueIp } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

// Every route of the OpenAPI document, generated from it (a new route is covered without a new line
// here): a stranger gets 401 before any field is read; hostile text, ids past what PostgreSQL holds, 100 KB
// strings and the same request twice at once never get a 5xx — as the admin and as a parent.

type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
};
type Operation = {
  parameters?: Array<{ in: string; name: string; schema: Schema }>;
  requestBody?: { content?: Record<string, { schema: Schema }> };
};
type Route = { method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'; path: string; op: Operation };
type Input = { query: Record<string, unknown>; body: unknown };

/** Where a fuzzed value sits: in the query, or at a path of object keys / array indexes in the body. */
type Leaf = { in: 'query' | 'body'; path: Array<string | number>; schema: Schema };

const INT4_OVER = 2 ** 31;
const SAFE_MAX = 2 ** 53;

function typeOf(schema: Schema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  return undefined;
}

function pick(schema: Schema): Schema {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return choices.find((choice) => typeOf(choice) !== 'null') ?? choices[0] ?? {};
  if (schema.allOf?.[0]) return schema.allOf[0];
  return schema;
}

/** A plausible value for a schema, using the fixture's ids for id-like names so calls reach the services. */
function sample(schema: Schema, name: string, ids: Record<string, number>): unknown {
  const s = pick(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined && s.default !== null) return s.default;
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(s.properties ?? {})) out[key] = sample(child, key, ids);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => sample(s.items ?? {}, name, ids));
    case 'integer':
    case 'number':
      return ids[name.replace(/s$/, '')] ?? Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'email' || /email/i.test(name)) return 'fuzz@example.org';
      if (s.format === 'uri' || /url/i.test(name)) return 'https://meet.example.org/room';
      if (s.format === 'date' || /date/i.test(name)) return '2031-03-04';
      if (/time|start|end/i.test(name)) return '16:00';
      if (name === 'code') return ids.code ? String(ids.code) : 'ABCDEF';
      return 'x'.repeat(Math.max(4, s.minLength ?? 0));
    default:
      return 'x';
  }
}

/** Every string and number the input carries, where the schema puts one (query and JSON body). */
function leaves(route: Route): Leaf[] {
  const found: Leaf[] = [];
  for (const parameter of route.op.parameters ?? []) {
    if (parameter.in === 'query')
      found.push({ in: 'query', path: [parameter.name], schema: pick(parameter.schema) });
  }
  const walk = (schema: Schema, path: Array<string | number>) => {
    const s = pick(schema);
    const type = typeOf(s);
    if (type === 'object')
      for (const [key, child] of Object.entries(s.properties ?? {})) walk(child, [...path, key]);
    else if (type === 'array') walk(s.items ?? {}, [...path, 0]);
    else if (type === 'string' || type === 'integer' || type === 'number')
      found.push({ in: 'body', path, schema: s });
  };
  const body = route.op.requestBody?.content?.['application/json']?.schema;
  if (body) walk(body, []);
  return found;
}

function withLeaf(input: Input, leaf: Leaf, value: unknown): Input {
  const copy: Input = structuredClone(input);
  if (leaf.in === 'query') {
    copy.query[leaf.path[0] as string] = value;
    return copy;
  }
  copy.body ??= {};
  let target = copy.body as Record<string | number, unknown>;
  for (const [index, key] of leaf.path.slice(0, -1).entries()) {
    target[key] ??= typeof leaf.path[index + 1] === 'number' ? [] : {};
    target = target[key] as Record<string | number, unknown>;
  }
  target[leaf.path.at(-1) as string | number] = value;
  return copy;
}

const fieldName = (leaf: Leaf) => leaf.path.join('.');

describe('every route of the OpenAPI document', () => {
  let t: TestApp;
  let e: Evening;
  let routes: Route[];
  let ids: Record<string, number>;
  const counts = { routes: 0, requests: 0 };

  beforeAll(async () => {
    t = await createTestApp();
    e = await evening(t, { quick: true });
    const slot = await t.db
      .selectFrom('slots')
      .select(['id', 'section_id'])
      .where('event_id', '=', e.eventId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const child = e.children[0]?.id ?? 0;
    const teacher = e.teachers[0]?.id ?? 0;
    ids = {
      id: e.eventId,
      eventId: e.eventId,
      slotId: slot.id,
      sectionId: slot.section_id,
      studentId: child,
      teacherId: teacher,
      userId: e.parent.id,
      parentId: e.parent.id,
      subjectId: e.subjects[0] ?? 0,
    };
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({
          method: method.toUpperCase() as Route['method'],
          path,
          op,
        })),
      );
  }, 60_000);
  afterAll(async () => {
    console.log(`every-route: ${counts.routes} routes, ${counts.requests} requests, 0 5xx`);
    await t.close();
  });

  const send = (route: Route, input: Input, headers: Record<string, string> = {}) => {
    counts.requests += 1;
    const query = Object.entries(input.query)
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
      .join('&');
    return t.app.inject({
      method: route.method,
      url: `${route.path}${query ? `?${query}` : ''}`,
      remoteAddress: uniqueIp(),
      headers: { 'content-type': 'application/json', ...headers },
      ...(input.body !== undefined && { payload: JSON.stringify(input.body) }),
    });
  };

  const validInput = (route: Route): Input => {
    const query: Record<string, unknown> = {};
    for (const parameter of route.op.parameters ?? [])
      if (parameter.in === 'query') query[parameter.name] = sample(parameter.schema, parameter.name, ids);
    const body = route.op.requestBody?.content?.['application/json']?.schema;
    return { query, body: body ? sample(body, '', ids) : undefined };
  };

  const no5xx = (response: LightMyRequestResponse, what: string) =>
    expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBeLessThan(500);

  it('covers the whole surface and lists its public routes exactly', () => {
    expect(routes.length).toBeGreaterThan(60);
    const documented = new Set(routes.map((route) => `${route.method} ${route.path}`));
    for (const route of PUBLIC_ROUTES)
      if (!route.startsWith('GET /api/dev/')) expect(documented).toContain(route);
  });

  it('a stranger gets 401 before any field is read, on every signed-in route', async () => {
    for (const route of routes) {
      if (PUBLIC_ROUTES.has(`${route.method} ${route.path}`)) continue;
      counts.routes += 1;
      // No input at all, and wrong input: either way the answer says "log in", never which fields are wrong.
      for (const input of [
        { query: {}, body: undefined },
        { query: { id: 'x' }, body: { junk: 1 } },
      ]) {
        const response = await send(route, input);
        expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
        expect(response.json()).not.toHaveProperty('errors');
      }
    }
  });

  describe.each(['admin', 'parent'] as const)('as %s', (who) => {
    const headersFor = async () => bearer(await sessionFor(t, who === 'admin' ? e.admin.id : e.parent.id));

    it('NUL and lone surrogates: 422 naming the field; ids of 2^31 and 2^53: a 4xx naming the field; 100 KB text and the same call twice at once: no 5xx', async () => {
      for (const route of routes) {
        const what = `${who} ${route.method} ${route.path}`;
        if (route.path === '/api/user/logout') continue; // would end the caller's session mid-run
        const headers = await headersFor();
        const input = validInput(route);
        const [first, second] = await Promise.all([send(route, input, headers), send(route, input, headers)]);
        no5xx(first as LightMyRequestResponse, `${what} (duplicate 1)`);
        no5xx(second as LightMyRequestResponse, `${what} (duplicate 2)`);
        // A caller this route refuses by role is refused before any input is read, whatever it sends.
        const refused =
          first?.statusCode === 403 &&
          (await send(route, { query: {}, body: undefined }, headers)).statusCode === 403;
        for (const leaf of leaves(route)) {
          const at = `${what} ${leaf.in}.${fieldName(leaf)}`;
          if (typeOf(leaf.schema) === 'string') {
            const nul = await send(route, withLeaf(input, leaf, 'a\u0000b'), headers);
            if (refused) expect(nul.statusCode, at).toBe(403);
            else
              expect(nul.json(), at).toEqual({
                message: SERVER_TEXT.invalidInput,
                errors: { [fieldName(leaf)]: [SERVER_TEXT.invalidText] },
              });
            if (leaf.in === 'body') {
              // Only JSON can carry a lone surrogate (a query string is UTF-8 bytes).
              const surrogate = await send(route, withLeaf(input, leaf, 'a\ud800b'), headers);
              expect(surrogate.statusCode, at).toBe(refused ? 403 : 422);
            }
            no5xx(await send(route, withLeaf(input, leaf, 'y'.repeat(100_000)), headers), `${at} 100 KB`);
          } else {
            for (const big of [INT4_OVER, SAFE_MAX]) {
              const response = await send(route, withLeaf(input, leaf, big), headers);
              no5xx(response, `${at} = ${big}`);
              expect([401, 403, 404, 422], at).toContain(response.statusCode);
              // (Where the generated input is not valid anyway, the schema may name another field first.)
              if (response.statusCode === 422 && first?.statusCode !== 422)
                expect(Object.keys(response.json().errors ?? {}), at).toContain(fieldName(leaf));
            }
          }
        }
      }
    }, 300_000);
  });

  it('an id past what PostgreSQL holds is a field error, not a database error', async () => {
    const response = await t.app.inject({
      url: `/api/events/view?id=${INT4_OVER}`,
      headers: bearer(await sessionFor(t, e.admin.id)),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ id: [VALIDATION.idInvalid] });
  });
});
