import fc from 'fast-check';

// JSON schema (as zod's OpenAPI 3.0 output writes it) → fast-check arbitraries, for the property tests
// over every route: values the schema accepts (so calls reach the services and the database), hostile
// values (what outside testers send), and a mix of the two at every level of a body.

/** The part of JSON Schema / OpenAPI 3.0 that zod's OpenAPI output uses. */
export type JsonSchema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  /** A number in JSON Schema 2020-12, a flag on minimum/maximum in OpenAPI 3.0. */
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};

/**
 * Plausible values for a field by its name (real ids of a seeded school, a date as the service reads it):
 * what a schema cannot say. `name` is the property's key, or the array's key for its items.
 */
export type Hint = (name: string, schema: JsonSchema) => fc.Arbitrary<unknown> | undefined;

export type ArbitraryOptions = { hint?: Hint };

/** Text past what any field takes: the largest a hostile string gets (100 KB). */
export const LONG_TEXT = 100_000;

/** Text that breaks storage, markup, search patterns, number and date parsing, or Unicode handling. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\r\n',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'a\udc00b',
  '\ufeff',
  '\u202eevil',
  'zero\u200bwidth',
  'e\u0301',
  'İ',
  'ß',
  '😀',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '%',
  '_',
  '\\',
  '%00',
  // Template injection, written so no linter takes it for a template of ours.
  `$${'{'}7*7}{{7*7}}`,
  '../../etc/passwd',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1.5',
  '1e309',
  '0x10',
  '١٢٣',
  '2147483648',
  '9223372036854775808',
  '-9223372036854775809',
  '2024-02-30',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  '24:00',
  '23:60',
  'infinity',
  '-infinity',
  'epoch',
  'allballs',
  'Europe/Nowhere',
  '@',
  'a@b',
  '[]',
  '{}',
  '[{"studentId":1}]',
];

/** Numbers past what PostgreSQL's integer and bigint hold, at their edges, negative, and not whole. */
export const HOSTILE_NUMBERS: readonly number[] = [
  2 ** 63,
  -(2 ** 63),
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  -1,
  0,
  -0,
  0.5,
  -0.5,
  1.5,
  1e-7,
  5e-324,
  1e308,
  -1e308,
];

/** Values of every JSON type, for a field that wants another. */
export const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  1,
  '',
  'x',
  [],
  [1],
  {},
  { a: 1 },
  [[[]]],
];

/** Keys a body should not carry: prototype names, ids a caller must not choose, keys that cannot be stored. */
export const EXTRA_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'schoolId',
  'school_id',
  'role',
  'isAdmin',
  'id',
  '',
  'a\u0000b',
  'x'.repeat(1000),
];

const SAFE = Number.MAX_SAFE_INTEGER;

/** The first type named that is not "null" (OpenAPI 3.0 writes `nullable`, JSON Schema a type list). */
export function typeOf(schema: JsonSchema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

const isNullable = (schema: JsonSchema) =>
  schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));

const choicesOf = (schema: JsonSchema) => schema.anyOf ?? schema.oneOf;

/** allOf as one schema: properties and required merged (what zod's intersections produce). */
function merged(schema: JsonSchema): JsonSchema {
  if (!schema.allOf?.length) return schema;
  const { allOf, ...rest } = schema;
  const out: JsonSchema = {
    ...rest,
    properties: { ...rest.properties },
    required: [...(rest.required ?? [])],
  };
  for (const part of allOf.map(merged)) {
    const { properties, required, ...other } = part;
    Object.assign(out, other);
    Object.assign(out.properties ?? {}, properties);
    out.required?.push(...(required ?? []));
  }
  return out;
}

/** Bounds of a number schema, exclusive ones made inclusive for integers. */
function bounds(schema: JsonSchema, integer: boolean) {
  const step = integer ? 1 : 0;
  let min = schema.minimum ?? -SAFE;
  let max = schema.maximum ?? SAFE;
  let minExcluded = false;
  let maxExcluded = false;
  if (typeof schema.exclusiveMinimum === 'number') {
    min = Math.max(min, schema.exclusiveMinimum);
    minExcluded = true;
  } else if (schema.exclusiveMinimum === true) minExcluded = true;
  if (typeof schema.exclusiveMaximum === 'number') {
    max = Math.min(max, schema.exclusiveMaximum);
    maxExcluded = true;
  } else if (schema.exclusiveMaximum === true) maxExcluded = true;
  if (integer) {
    min = Math.ceil(min) + (minExcluded && Number.isInteger(min) ? step : 0);
    max = Math.floor(max) - (maxExcluded && Number.isInteger(max) ? step : 0);
  }
  return {
    min: Math.max(min, -SAFE),
    max: Math.min(max, SAFE),
    minExcluded: !integer && minExcluded,
    maxExcluded: !integer && maxExcluded,
  };
}

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  'date-time': () =>
    fc
      .date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2100-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString()),
  date: () =>
    fc
      .date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2100-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10)),
  time: () => fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(11, 19)),
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  uuid: () => fc.uuid(),
};

/** Text the schema accepts: its pattern or format, else ASCII or any Unicode, and the length bounds exactly. */
function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const fits = (text: string) => text.length >= min && text.length <= max;
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern), { maxLength: Math.min(max, 200) }).filter(fits);
  }
  const format = schema.format ? FORMATS[schema.format] : undefined;
  if (format) return format().filter(fits);
  // Short text most of the time; a long maximum is reached by the boundary case below.
  const cap = Math.min(max, min + 40);
  const choices: Array<fc.WeightedArbitrary<string>> = [
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme-ascii' }) },
    // One code point is one or two UTF-16 units: half the units keeps within maxLength.
    {
      weight: 2,
      arbitrary: fc
        .string({ minLength: min, maxLength: Math.max(min, Math.floor(cap / 2)), unit: 'grapheme-composite' })
        .filter(fits),
    },
  ];
  if (Number.isFinite(max) && max <= LONG_TEXT) {
    // Exactly at the limit, in one-, two- and three-byte UTF-8: a column narrower than the schema overflows.
    choices.push({ weight: 1, arbitrary: fc.constantFrom('x', 'é', '字').map((char) => char.repeat(max)) });
  }
  if (min > 0) choices.push({ weight: 1, arbitrary: fc.constant('x'.repeat(min)) });
  return fc.oneof(...choices);
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const { min, max, minExcluded, maxExcluded } = bounds(schema, integer);
  if (integer) return fc.integer({ min, max });
  return fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
}

/** Values the schema accepts; where `hint` knows the field, mostly its values (the rest still schema-made). */
export function validArbitrary(
  schema: JsonSchema,
  options: ArbitraryOptions = {},
  name = '',
): fc.Arbitrary<unknown> {
  const s = merged(schema);
  const made = validOf(s, options, name);
  const hinted = options.hint?.(name, s);
  const value = hinted ? fc.oneof({ weight: 3, arbitrary: hinted }, { weight: 1, arbitrary: made }) : made;
  return isNullable(s)
    ? fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) })
    : value;
}

function validOf(s: JsonSchema, options: ArbitraryOptions, name: string): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const choices = choicesOf(s);
  if (choices?.length) return fc.oneof(...choices.map((choice) => validArbitrary(choice, options, name)));
  switch (typeOf(s)) {
    case 'object': {
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(s.properties ?? {}))
        shape[key] = validArbitrary(child, options, key);
      return fc.record(shape, { requiredKeys: (s.required ?? []).filter((key) => key in shape) });
    }
    case 'array': {
      const item = validArbitrary(s.items ?? {}, options, name);
      const minLength = s.minItems ?? 0;
      const maxLength = s.maxItems ?? minLength + 5;
      const few = fc.array(item, { minLength, maxLength: Math.min(maxLength, minLength + 4) });
      if (maxLength > 500) return few;
      // As many as the schema allows (ids drawn from a small pool repeat: a unique constraint's case).
      return fc.oneof(
        { weight: 6, arbitrary: few },
        { weight: 1, arbitrary: fc.array(item, { minLength: maxLength, maxLength }) },
      );
    }
    case 'integer':
      return validNumber(s, true);
    case 'number':
      return validNumber(s, false);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return validString(s);
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Hostile text: the catalogue, 100 KB (shrinking toward the shortest that still breaks), random code units. */
export function hostileString(schema: JsonSchema = {}): fc.Arbitrary<string> {
  const long = fc
    .tuple(
      fc.constantFrom('y', 'é', '😀', '<'),
      fc.oneof(fc.constant(LONG_TEXT), fc.integer({ min: 1, max: LONG_TEXT })),
    )
    .map(([char, length]) => char.repeat(Math.ceil(length / char.length)));
  const edges: string[] = [];
  if (schema.maxLength !== undefined && schema.maxLength < LONG_TEXT)
    edges.push('x'.repeat(schema.maxLength + 1));
  if (schema.minLength) edges.push('x'.repeat(schema.minLength - 1), ' '.repeat(schema.minLength));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: long },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    // UTF-16 code units one by one: lone surrogates and control characters.
    {
      weight: 2,
      arbitrary: fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
        maxLength: 12,
      }),
    },
    ...(edges.length ? [{ weight: 2, arbitrary: fc.constantFrom(...edges) }] : []),
  );
}

/** Hostile numbers: the catalogue, just past the schema's bounds, any double, any safe integer. */
export function hostileNumber(schema: JsonSchema = {}): fc.Arbitrary<number> {
  const edges: number[] = [];
  if (schema.minimum !== undefined) edges.push(schema.minimum - 1, schema.minimum - 0.5);
  if (schema.maximum !== undefined) edges.push(schema.maximum + 1, schema.maximum + 0.5);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS, ...edges) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.maxSafeInteger() },
  );
}

/** A JSON array nested `depth` levels deep. */
const nested = (depth: number): unknown => {
  let value: unknown = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
};

/** `object` with `extra` keys added as own properties (`__proto__` included, as JSON.parse would make it). */
function withKeys(object: Record<string, unknown>, extra: Array<[string, unknown]>): Record<string, unknown> {
  const out = { ...object };
  for (const [key, value] of extra)
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * A value that breaks the schema, or that the schema lets through but storage, markup or parsing should
 * not trust: wrong types, NUL and lone surrogates, 100 KB text, 2^63, -2^63, 2^31, -1, 0, floats, missing
 * and extra fields, too many items, a deep nest.
 */
export function hostileArbitrary(schema: JsonSchema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const s = merged(schema);
  const wrong = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...WRONG_TYPES) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 2000 }).map(nested) },
  );
  const own: Array<fc.WeightedArbitrary<unknown>> = [];
  const choices = choicesOf(s);
  if (choices?.length)
    own.push(...choices.map((choice) => ({ weight: 2, arbitrary: hostileArbitrary(choice, options) })));
  if (s.enum?.length || s.const !== undefined) {
    const known = s.enum ?? [s.const];
    const texts = known.map(String);
    own.push({
      weight: 3,
      arbitrary: fc.constantFrom(
        ...texts.flatMap((text) => [text.toUpperCase(), ` ${text}`, `${text}x`]),
        2,
        'other',
      ),
    });
  }
  switch (typeOf(s)) {
    case 'string':
      own.push({ weight: 6, arbitrary: hostileString(s) }, { weight: 2, arbitrary: hostileNumber() });
      break;
    case 'integer':
    case 'number':
      own.push(
        { weight: 6, arbitrary: hostileNumber(s) },
        // Numbers as text, in JSON where a number belongs.
        { weight: 2, arbitrary: hostileNumber(s).map(String) },
      );
      break;
    case 'boolean':
      own.push({ weight: 3, arbitrary: fc.constantFrom('true', 'false', 1, 0, 'yes', 'on') });
      break;
    case 'array': {
      const item = fuzzArbitrary(s.items ?? {}, options);
      const tooMany = (s.maxItems ?? 1000) + 1;
      own.push(
        { weight: 4, arbitrary: fc.array(item, { minLength: 1, maxLength: 6 }) },
        { weight: 1, arbitrary: fc.array(item, { minLength: tooMany, maxLength: tooMany }) },
        { weight: 1, arbitrary: hostileString(s).map((text) => [text]) },
      );
      break;
    }
    case 'object':
      own.push({ weight: 6, arbitrary: objectArbitrary(s, options) });
      break;
  }
  return fc.oneof({ weight: 2, arbitrary: wrong }, ...own);
}

/** Extra keys with wrong or hostile values. */
const extraKeys = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 8 })),
    fc.oneof(fc.constantFrom(...WRONG_TYPES), hostileString()),
  ),
  { minLength: 1, maxLength: 3 },
);

/** A hostile object: fields fuzzed, required ones often missing, extra keys. */
function objectArbitrary(s: JsonSchema, options: ArbitraryOptions) {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of Object.entries(s.properties ?? {}))
    shape[key] = fuzzArbitrary(child, options, key);
  const required = (s.required ?? []).filter((key) => key in shape);
  const fields = fc.oneof(
    { weight: 1, arbitrary: fc.record(shape, { requiredKeys: required }) },
    { weight: 3, arbitrary: fc.record(shape, { requiredKeys: [] }) },
  );
  return fc
    .tuple(fields, fc.option(extraKeys, { nil: [] as Array<[string, unknown]> }))
    .map(([object, keys]) => withKeys(object as Record<string, unknown>, keys));
}

/** Marks a field left out of a broken object. */
const MISSING = Symbol('missing');

/**
 * An object that the schema accepts but for at most two fields: each of those hostile, fuzzed inside (an
 * object or a list) or missing; now and then extra keys. Few faults at once: the rest of the body is valid,
 * so the call gets as far as the broken field can take it.
 */
function fewFaults(s: JsonSchema, options: ArbitraryOptions) {
  const entries = Object.entries(s.properties ?? {});
  const keys = entries.map(([key]) => key);
  const valid: Record<string, fc.Arbitrary<unknown>> = {};
  const broken: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of entries) {
    valid[key] = validArbitrary(child, options, key);
    const type = typeOf(merged(child));
    const nested = type === 'object' || type === 'array';
    const hostile = hostileArbitrary(child, options);
    broken[key] = fc.oneof(
      ...(nested
        ? [
            { weight: 4, arbitrary: fuzzArbitrary(child, options, key) },
            { weight: 1, arbitrary: hostile },
          ]
        : [{ weight: 5, arbitrary: hostile }]),
      { weight: 1, arbitrary: fc.constant<unknown>(MISSING) },
    );
  }
  const required = (s.required ?? []).filter((key) => key in valid);
  return fc
    .tuple(
      fc.subarray(keys, { maxLength: Math.min(2, keys.length) }),
      fc.record(valid, { requiredKeys: required }),
      fc.record(broken),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant([] as Array<[string, unknown]>) },
        { weight: 1, arbitrary: extraKeys },
      ),
    )
    .map(([faulty, fine, faults, extra]) => {
      const out: Record<string, unknown> = { ...(fine as Record<string, unknown>) };
      for (const key of faulty) {
        const value = (faults as Record<string, unknown>)[key];
        if (value === MISSING) delete out[key];
        else out[key] = value;
      }
      return withKeys(out, extra);
    });
}

/**
 * Mostly what the schema accepts, with hostile values at any level: an object breaks at most two of its
 * fields (and those may break inside), a list now and then one item; one input in six is hostile whole.
 */
export function fuzzArbitrary(
  schema: JsonSchema,
  options: ArbitraryOptions = {},
  name = '',
): fc.Arbitrary<unknown> {
  // Built once per schema node: a hostile object fuzzes its fields too, and bodies nest a few levels.
  const cache = fuzzCache.get(options) ?? new WeakMap<JsonSchema, Map<string, fc.Arbitrary<unknown>>>();
  fuzzCache.set(options, cache);
  const byName = cache.get(schema) ?? new Map<string, fc.Arbitrary<unknown>>();
  cache.set(schema, byName);
  const known = byName.get(name);
  if (known) return known;
  const built = fuzzOf(merged(schema), options, name);
  byName.set(name, built);
  return built;
}

const fuzzCache = new WeakMap<ArbitraryOptions, WeakMap<JsonSchema, Map<string, fc.Arbitrary<unknown>>>>();

function fuzzOf(s: JsonSchema, options: ArbitraryOptions, name: string): fc.Arbitrary<unknown> {
  let shaped: fc.Arbitrary<unknown>;
  const type = typeOf(s);
  if (type === 'object' && !choicesOf(s)) shaped = fewFaults(s, options);
  else if (type === 'array' && !choicesOf(s)) {
    // Items valid but now and then one fuzzed.
    const item = fc.oneof(
      { weight: 4, arbitrary: validArbitrary(s.items ?? {}, options, name) },
      { weight: 1, arbitrary: fuzzArbitrary(s.items ?? {}, options, name) },
    );
    const minLength = s.minItems ?? 0;
    shaped = fc.array(item, { minLength, maxLength: Math.min(s.maxItems ?? minLength + 4, minLength + 4) });
  } else shaped = validArbitrary(s, options, name);
  return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: hostileArbitrary(s, options) });
}
