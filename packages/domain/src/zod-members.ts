// The parts of zod that the project builds its schemas with. `z` (./zod.ts) is this module as one value,
// which a bundle keeps whole: zod's own namespace would bring its 40 locales and its JSON Schema
// converters into every page that validates a form. A schema that needs another part adds it here.

export type { infer, input, output, RefinementCtx, ZodType } from 'zod';
export {
  array,
  boolean,
  coerce,
  date,
  enum,
  iso,
  literal,
  NEVER,
  null,
  number,
  object,
  record,
  strictObject,
  string,
  union,
  unknown,
} from 'zod';
