import { EMAIL_PATTERN, idField } from '@parley/domain/fields';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fuzzArbitrary,
  HOSTILE_NUMBERS,
  hostileArbitrary,
  type JsonSchema,
  LONG_TEXT,
  validArbitrary,
} from './schema-arbitrary';

// The converter behind property-routes.test.ts: what it calls valid, the zod schema it came from accepts;
// what it calls hostile carries every class of hostile input the brief names; the mix holds both.

/** Everything zod's OpenAPI 3.0 output writes for our routes: bounds, exclusive bounds, nullable, unions… */
const request = z.strictObject({
  id: idField,
  name: z.string().min(2).max(20),
  email: z.string().min(1).max(254).regex(EMAIL_PATTERN),
  kind: z.enum(['parents', 'students']),
  status: z.union([z.literal(0), z.literal(1)]),
  fixed: z.literal('x'),
  note: z.string().max(30).nullable(),
  tags: z.array(z.string().min(1).max(5)).min(1).max(3),
  ratio: z.number().gt(0).lt(1),
  count: z.number().int().min(-5).max(5).optional(),
  flag: z.boolean().default(true),
  at: z.iso.datetime(),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  items: z
    .array(z.strictObject({ slotId: idField, guests: z.number().int().min(0).max(20).default(0) }))
    .max(50),
});

const schema = z.toJSONSchema(request, { target: 'openapi-3.0', io: 'input' }) as JsonSchema;
const SEED = 42;
const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 2000) =>
  fc.sample(arbitrary, { seed: SEED, numRuns });

describe('validArbitrary', () => {
  it('makes only values the zod schema behind the JSON schema accepts', () => {
    expect(schema).toMatchObject({
      additionalProperties: false,
      properties: { id: { exclusiveMinimum: true } },
    });
    fc.assert(
      fc.property(validArbitrary(schema), (value) => {
        const parsed = request.safeParse(value);
        if (!parsed.success) throw new Error(`${JSON.stringify(value)}: ${parsed.error.message}`);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('reaches the bounds: the longest text, the most items, null where nullable, optional fields left out', () => {
    const values = sample(validArbitrary(schema)) as Array<Record<string, unknown>>;
    expect(values.some((value) => value.name === 'x'.repeat(20) || value.name === '字'.repeat(20))).toBe(
      true,
    );
    expect(values.some((value) => Array.isArray(value.items) && value.items.length === 50)).toBe(true);
    expect(values.some((value) => value.note === null)).toBe(true);
    expect(values.some((value) => !('count' in value))).toBe(true);
    expect(new Set(values.map((value) => value.status))).toEqual(new Set([0, 1]));
  });

  it('reads JSON Schema 2020-12 too: const, type lists with null, numeric exclusive bounds, oneOf, allOf', () => {
    const modern: JsonSchema = {
      allOf: [
        { type: 'object', properties: { a: { const: 7 } }, required: ['a'] },
        {
          type: 'object',
          properties: {
            b: { type: ['integer', 'null'], exclusiveMinimum: 0, exclusiveMaximum: 3 },
            c: { oneOf: [{ type: 'boolean' }, { type: 'string', format: 'date', maxLength: 10 }] },
          },
          required: ['b', 'c'],
        },
      ],
    };
    for (const value of sample(validArbitrary(modern), 300) as Array<Record<string, unknown>>) {
      expect(value.a).toBe(7);
      expect([1, 2, null]).toContain(value.b);
      expect(typeof value.c === 'boolean' || /^\d{4}-\d{2}-\d{2}$/.test(String(value.c))).toBe(true);
    }
  });

  it('takes a hint’s values for the fields it knows, mostly, and the schema’s for the rest', () => {
    const hint = (name: string) => (name === 'slotId' ? fc.constantFrom(101, 102) : undefined);
    const slots = sample(validArbitrary(schema, { hint }))
      .flatMap((value) => (value as { items: Array<{ slotId: number }> }).items)
      .map((item) => item.slotId);
    const fromPool = slots.filter((id) => id === 101 || id === 102).length;
    expect(fromPool / slots.length).toBeGreaterThan(0.5);
    expect(fromPool).toBeLessThan(slots.length);
  });
});

describe('hostileArbitrary', () => {
  const strings = sample(hostileArbitrary({ type: 'string', maxLength: 100 }), 3000);
  const numbers = sample(hostileArbitrary({ type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 }), 3000);
  const objects = sample(hostileArbitrary(schema), 3000);

  it('text: NUL bytes, lone surrogates, 100 KB, markup, Unicode, one past maxLength, wrong types', () => {
    const texts = strings.filter((value): value is string => typeof value === 'string');
    expect(texts.some((text) => text.includes('\u0000'))).toBe(true);
    expect(texts.some((text) => !text.isWellFormed())).toBe(true);
    expect(texts.some((text) => text.length >= LONG_TEXT)).toBe(true);
    expect(texts).toContain('<script>alert(1)</script>');
    expect(
      texts.some(
        (text) => [...text].some((char) => (char.codePointAt(0) ?? 0) > 0x7f) && text.isWellFormed(),
      ),
    ).toBe(true);
    expect(texts).toContain('x'.repeat(101));
    for (const wrong of [null, true, 0, [], {}]) expect(strings).toContainEqual(wrong);
  });

  it('numbers: 2^63, -2^63, 2^31, -1, 0, floats, numbers as text, just past the bounds', () => {
    for (const number of [2 ** 63, -(2 ** 63), 2 ** 31, -1, 0, 0.5]) expect(numbers).toContain(number);
    expect(numbers).toContain(String(2 ** 63));
    expect(numbers).toContain(2 ** 31);
    expect(HOSTILE_NUMBERS.filter((number) => !Number.isInteger(number)).length).toBeGreaterThan(3);
  });

  it('objects: required fields missing, extra fields (__proto__ among them), wrong types, too many items', () => {
    const records = objects.filter(
      (value): value is Record<string, unknown> =>
        typeof value === 'object' && value !== null && !Array.isArray(value),
    );
    expect(records.some((record) => !('id' in record) || !('name' in record))).toBe(true);
    expect(records.some((record) => Object.hasOwn(record, '__proto__'))).toBe(true);
    expect(records.some((record) => 'schoolId' in record || 'school_id' in record)).toBe(true);
    expect(records.some((record) => Array.isArray(record.items) && record.items.length > 50)).toBe(true);
    expect(objects).toContainEqual(null);
    expect(objects.some((value) => Array.isArray(value))).toBe(true);
    // The extra keys survive JSON: what the test sends is what was generated.
    const proto = records.find((record) => Object.hasOwn(record, '__proto__'));
    expect(Object.hasOwn(JSON.parse(JSON.stringify(proto)), '__proto__')).toBe(true);
  });
});

describe('fuzzArbitrary', () => {
  it('mixes: some inputs pass the schema (they reach the service), most trip on a field or two', () => {
    const values = sample(fuzzArbitrary(schema), 1000);
    const accepted = values.filter((value) => request.safeParse(value).success).length;
    expect(accepted).toBeGreaterThan(20);
    expect(accepted).toBeLessThan(values.length / 2);
    // A refused input is mostly refused for a field or two, not for everything at once.
    const fieldsWrong = values
      .map((value) => request.safeParse(value))
      .filter((result) => !result.success)
      .map((result) => new Set(result.error?.issues.map((issue) => String(issue.path[0] ?? '_'))).size);
    const few = fieldsWrong.filter((count) => count <= 2).length;
    expect(few / fieldsWrong.length).toBeGreaterThan(0.5);
  });

  it('shrinks a failure to a small input: a planted bug on NUL is reported with little else around it', () => {
    const hasNul = (value: unknown): boolean =>
      typeof value === 'string'
        ? value.includes('\u0000')
        : typeof value === 'object' && value !== null && Object.values(value).some(hasNul);
    const details = fc.check(
      fc.property(fuzzArbitrary(schema), (value) => !hasNul(value)),
      { seed: SEED, numRuns: 2000 },
    );
    expect(details.failed).toBe(true);
    const [smallest] = details.counterexample ?? [];
    expect(hasNul(smallest)).toBe(true);
    // A whole generated body is hundreds of characters; the shrunk one keeps little but the NUL.
    expect(JSON.stringify(smallest).length).toBeLessThan(60);
  });
});
