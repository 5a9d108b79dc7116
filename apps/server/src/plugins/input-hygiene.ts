import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyInstance } from 'fastify';
import { unprocessable } from '../lib/http-error';

// Text that PostgreSQL cannot store or that is not text at all, refused once for every route before any
// schema or service sees it: a NUL character (PostgreSQL refuses the byte) and a lone UTF-16 surrogate (no
// UTF-8 form: the driver would silently store U+FFFD in its place).
const unstorable = (text: string) => text.includes('\0') || !text.isWellFormed();

/** The dotted path of the first string (key or value) in the input that cannot be stored, if any. */
export function unstorableField(input: unknown): string | null {
  // A loop, not recursion: a body may nest a million levels deep within the size limit.
  const pending: Array<[unknown, string]> = [[input, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (unstorable(value)) return path || '_';
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value).reverse()) {
        const at = path ? `${path}.${key}` : key;
        if (unstorable(key)) return at;
        pending.push([child, at]);
      }
    }
  }
  return null;
}

/** preValidation (after authentication, before the schema): the field named, 422, for every route. */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const input of [request.params, request.query, request.body]) {
      const field = unstorableField(input);
      if (field) throw unprocessable(SERVER_TEXT.invalidInput, { [field]: [SERVER_TEXT.invalidText] });
    }
  });
}
