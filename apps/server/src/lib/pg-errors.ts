// What PostgreSQL refused, for a service that answers it in its own words (plugins/errors.ts maps the
// rest in one place). A constraint narrows it to that one.

type PgError = { code?: string; constraint?: string };
const refused = (error: unknown, code: string, constraint?: string) =>
  (error as PgError)?.code === code &&
  (constraint === undefined || (error as PgError)?.constraint === constraint);

/** 23505: a unique constraint (an email, a name or a code already taken). */
export const isUniqueViolation = (error: unknown, constraint?: string) => refused(error, '23505', constraint);

/** 23514: a CHECK constraint (a slot's bookings over its capacity). */
export const isCheckViolation = (error: unknown, constraint?: string) => refused(error, '23514', constraint);
