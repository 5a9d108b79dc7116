import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, serverMessage } from './api-client';

// A failed save keeps everything typed; the server's field errors (422, 409) show on their fields and
// the rest in an alert above the form.

/** Puts the first server message of each known field on that field. */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  if (!(error instanceof ApiError) || !error.errors) return;
  for (const [field, messages] of Object.entries(error.errors)) {
    const message = messages[0];
    if (message && (fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message });
    }
  }
}

/**
 * The alert lines: the server's message (else the fallback), then errors of fields the form lacks. A
 * message already shown on a field is not repeated above the form.
 */
export function alertLines(error: unknown, fields: readonly string[], fallback: string): string[] {
  const onFields = new Set<string>();
  const elsewhere: string[] = [];
  if (error instanceof ApiError && error.errors) {
    for (const [field, messages] of Object.entries(error.errors)) {
      const message = messages[0];
      if (!message) continue;
      if (fields.includes(field)) onFields.add(message);
      else if (!elsewhere.includes(message)) elsewhere.push(message);
    }
  }
  const main = serverMessage(error, fallback);
  return [...(onFields.has(main) || elsewhere.includes(main) ? [] : [main]), ...elsewhere];
}
