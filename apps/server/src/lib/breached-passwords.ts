import { PASSWORD_MIN } from '@parley/domain/constants';
import { VALIDATION } from '@parley/domain/messages';
import { dictionary } from '@zxcvbn-ts/language-common';
import { unprocessable } from './http-error';

// The commonest leaked passwords (zxcvbn-ts's common list, ~49k, from breach corpora), loaded once on
// first use. Only those long enough to pass the length rule are kept: a shorter one is refused anyway.
let common: Set<string> | undefined;

export function isBreachedPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].filter((entry) => entry.length >= PASSWORD_MIN));
  return common.has(password.toLowerCase());
}

/** 422 naming the field when a password being chosen is one of the commonest leaked ones. */
export function assertNotBreached(password: string, field = 'password'): void {
  if (isBreachedPassword(password))
    throw unprocessable(VALIDATION.passwordBreached, { [field]: [VALIDATION.passwordBreached] });
}
