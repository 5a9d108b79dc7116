import {
  EMAIL_MAX,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PERSON_NAME_MIN,
  SCHOOL_NAME_MIN,
} from './constants';
import { VALIDATION } from './messages';
import { z } from './zod';

// Field rules of spec §5, shared by forms (client) and request schemas (server).

/** A text field: missing says "Required.", a number or object where text belongs says so. */
const text = () =>
  z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? VALIDATION.required : VALIDATION.notText,
  });

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailField = text()
  .trim()
  .min(1, { error: VALIDATION.required, abort: true })
  .max(EMAIL_MAX, VALIDATION.invalidEmail)
  .regex(EMAIL_PATTERN, VALIDATION.invalidEmail)
  .transform((value) => value.toLowerCase());

export const passwordField = text()
  .min(1, { error: VALIDATION.required, abort: true })
  .min(PASSWORD_MIN, VALIDATION.passwordMin)
  .max(PASSWORD_MAX, VALIDATION.passwordMax);

export const schoolNameField = text()
  .trim()
  .min(1, { error: VALIDATION.required, abort: true })
  .min(SCHOOL_NAME_MIN, VALIDATION.schoolNameMin)
  .max(NAME_MAX, VALIDATION.nameMax);

export const personNameField = text()
  .trim()
  .min(1, { error: VALIDATION.required, abort: true })
  .min(PERSON_NAME_MIN, VALIDATION.personNameMin)
  .max(NAME_MAX, VALIDATION.nameMax);

export const tokenField = text().trim().min(1, { error: VALIDATION.required, abort: true }).max(200);

/** The largest id a PostgreSQL integer column holds: 2^31 or 2^53 is a field error, never a database error. */
export const ID_MAX = 2_147_483_647;

/** An id in a JSON body. */
export const idField = z.number().int().positive().max(ID_MAX, VALIDATION.idInvalid);

/** An id in a query string or path (text turned into a number). */
export const idParam = z.coerce.number().int().positive().max(ID_MAX, VALIDATION.idInvalid);
