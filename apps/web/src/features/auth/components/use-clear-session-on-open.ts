import { useEffect } from 'react';
import { clearSession } from '../../../lib/session';

/** Spec §4: opening the verify pages clears the stored token and user. */
export function useClearSessionOnOpen(): void {
  useEffect(() => {
    clearSession();
  }, []);
}
