import type { SchoolProfile, SchoolUpdate } from '@parley/domain/school';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

// The school's profile (issue 3): every member reads it; admins change it.

export const schoolQuery = queryOptions({
  queryKey: ['school'],
  queryFn: ({ signal }) => api.get<SchoolProfile>('site/school', { signal }),
});

export const updateSchool = (body: SchoolUpdate) => api.post<SchoolProfile>('site/update-school', body);
