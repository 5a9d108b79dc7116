import { EMAIL_CHECK_MIN_CHARS } from '@parley/domain/constants';
import { useEffect, useState } from 'react';
import { searchEmailForSignup } from './api';

export type EmailCheckStatus = 'idle' | 'checking' | 'available' | 'exists' | 'error';

export const EMAIL_CHECK_DEBOUNCE_MS = 300;

/**
 * Spec §5: the register email is checked live from 3 characters (debounced). The status always
 * belongs to the current value: an answer for an older value is never shown.
 */
export function useEmailCheck(email: string, delayMs = EMAIL_CHECK_DEBOUNCE_MS): EmailCheckStatus {
  const query = email.trim().toLowerCase();
  const [result, setResult] = useState<{ query: string; status: EmailCheckStatus } | null>(null);

  useEffect(() => {
    if (query.length < EMAIL_CHECK_MIN_CHARS) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchEmailForSignup(query, controller.signal)
        .then((answer) => setResult({ query, status: answer.exists ? 'exists' : 'available' }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.error('Email check failed', error);
          setResult({ query, status: 'error' });
        });
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, delayMs]);

  if (query.length < EMAIL_CHECK_MIN_CHARS) return 'idle';
  return result?.query === query ? result.status : 'checking';
}
