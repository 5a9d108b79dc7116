// What PostgreSQL refused, for a service that answers it in its own words (plugins/errors.ts maps the
// rest in one place). A constraint narrows it to that one. And whether the database was away: a failure
// worth a retry, not a fault in the code.

type PgError = { code?: string; constraint?: string };
const refused = (error: unknown, code: string, constraint?: string) =>
  (error as PgError)?.code === code &&
  (constraint === undefined || (error as PgError)?.constraint === constraint);

/** 23505: a unique constraint (an email, a name or a code already taken). */
export const isUniqueViolation = (error: unknown, constraint?: string) => refused(error, '23505', constraint);

/** 23514: a CHECK constraint (a slot's bookings over its capacity). */
export const isCheckViolation = (error: unknown, constraint?: string) => refused(error, '23514', constraint);

/** PostgreSQL/driver failures that mean "try again shortly" rather than "your request is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND', // the database host's name does not resolve (its container is restarting)
  'EAI_AGAIN',
  '57P01', // admin shutdown
  '57P03', // cannot connect now
  '53300', // too many connections
  '55P03', // lock not available (lock_timeout)
  '57014', // statement timeout
  '40001', // serialization failure
  '40P01', // deadlock
]);

export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) ||
    (error instanceof Error &&
      // The last one: a transaction's ROLLBACK on a connection that died under it.
      /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/.test(
        error.message,
      ))
  );
}
