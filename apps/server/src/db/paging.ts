import { sql } from 'kysely';
import { likeLiteral } from './like';

// What the repositories of the paged lists share (decision 035).

/**
 * On each row of a page: how many rows the query matched in all, found in the same statement. For a list
 * that is sorted whole anyway (by name, no index), so that its filter runs once, not again for a count.
 */
export const matchedInAll = sql<string>`count(*) over ()`.as('matched');

/**
 * How many a paged query matched: what its rows carry, or, past the last page where no row carries it, a
 * count of its own.
 */
export async function totalOf(
  rows: Array<{ matched: string }>,
  offset: number,
  count: () => Promise<{ n: number | string | bigint }>,
): Promise<number> {
  if (rows[0]) return Number(rows[0].matched);
  return offset === 0 ? 0 : Number((await count()).n);
}

/** "%text%" for LIKE, in lower case: what a list's search box matches. */
export const containing = (text: string) => `%${likeLiteral(text.toLowerCase())}%`;
