import type { AuditListResponse } from '@parley/domain/audit';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';

// The audit trail's calls (decision 014): a person's or an event's entries, and the CSV export.

export type ActivitySubject = { about: 'person' | 'event'; id: number };

export const activityQuery = ({ about, id }: ActivitySubject) =>
  queryOptions({
    queryKey: ['audit', about, id],
    queryFn: ({ signal }) => api.get<AuditListResponse>(`audit/${about}`, { query: { id }, signal }),
    // Always fresh: the page it sits on has just changed something, or another admin has.
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** "Download CSV": the same entries, all of them, as a file. */
export const downloadActivity = ({ about, id }: ActivitySubject) =>
  downloadFile(
    'audit/export',
    about === 'person' ? { personId: id } : { eventId: id },
    `activity-${about}-${id}.csv`,
  );
