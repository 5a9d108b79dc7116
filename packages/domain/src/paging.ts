import { z } from './zod';

// A long list comes a page at a time, searched on the server (issue 39, decision 035): the parameters and
// the answer every such list shares.

/** The page asked for, 1 first. */
export const pageParam = z.coerce.number().int().min(1).max(100_000).default(1);
/** What a list is searched for: part of a name or an email, any case. */
export const searchParam = z.string().trim().max(100).default('');
/** A filter turned on (1) or off (0, the default). */
export const flagParam = z.coerce.number().int().min(0).max(1).default(0);
/** A page of a list's items, how many match in all, and the page's place. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });
