import fastJson from 'fast-json-stringify';
import { type ZodType, z } from 'zod';

/**
 * A serializer compiled from the JSON Schema of a route's zod answer schema, for the answers written most
 * (a booking and the 409 of a lost race, half of a rush's attempts with a teacher's column of slots): the
 * default walks each answer through zod before JSON.stringify, twice the CPU (issue 14). What leaves is
 * the same: the schema's properties only (anything else on the object is dropped), written as JSON. What it
 * does not do is check the values against the schema on the way out; the views that build these answers
 * are typed by the same schemas.
 */
export function compiledSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  const json = z.toJSONSchema(schema as ZodType, { io: 'output', target: 'draft-7' });
  return fastJson(json as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
}
