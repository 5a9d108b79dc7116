import { PICKER_OPTIONS } from '@parley/domain/constants';
import type { DirectoryPage } from '@parley/domain/people';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';

// The pickers of people (a parent's children, a section's teachers, recipients, a family to book for) ask
// the directory for the text typed, a few at a time, never the whole list (decision 035).

export type PickedPerson = { id: number; name: string; email: string };

/**
 * The school's admins, teachers, parents or students whose title, name or email holds `q`: the first by
 * name, and how many match. Under the directory's key, so an edit of the directory reloads it.
 */
export const peopleSearchQuery = (kind: 'admins' | 'teachers' | 'parents' | 'students', q: string) =>
  queryOptions({
    queryKey: ['people', kind, 'search', q],
    queryFn: ({ signal }) =>
      api.get<DirectoryPage>(`users/${kind}`, { query: { q, pageSize: PICKER_OPTIONS }, signal }),
    select: (data) => ({
      total: data.total,
      items: data.items.map((item): PickedPerson => ({ id: item.id, name: item.name, email: item.email })),
    }),
    staleTime: 60_000,
  });
