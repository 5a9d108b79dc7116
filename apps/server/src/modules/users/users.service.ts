import type { AppContext } from '../../context';
import { currentUser } from '../accounts/accounts.service';
import { searchSchoolEmails } from './users.repository';

// The signed-in person, and the school's own addresses for autocomplete.

export function userData(ctx: AppContext, userId: number) {
  return currentUser(ctx, userId);
}

/** Addresses of the school containing `query` (blank: none). */
export async function searchEmails(ctx: AppContext, schoolId: number, query: string) {
  const words = query.trim();
  return words ? searchSchoolEmails(ctx.db, schoolId, words) : [];
}
