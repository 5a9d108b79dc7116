import type { CallInfo, CallInviteRequest } from '@parley/domain/live-schemas';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { bookingLinkHeaders } from '../booking/booking-link';

// GET calls/join (issue 41): whether the caller may join a video appointment's call now, and with what.
// A family without a session comes by the personal link of its mail (the header of the booking calls).

/** POST calls/invite: the teacher asks an admin of the school to help in the call (they get a push). */
export const inviteAdmin = (request: CallInviteRequest) =>
  api.post<{ message: string }>('calls/invite', request);

/** How often a family's call page asks again while it is open. */
export const CALL_REFRESH_MS = 15_000;

export const callQuery = (bookingId: number, link: string | null) =>
  queryOptions({
    queryKey: ['calls', bookingId],
    queryFn: ({ signal }) =>
      api.get<CallInfo>('calls/join', {
        query: { bookingId },
        signal,
        ...(link && { headers: bookingLinkHeaders(link) }),
      }),
    retry: false,
    // A family waiting sees whether the teacher is still in the appointment before (the calls' own timing).
    refetchInterval: (query) => (query.state.data?.role === 'family' ? CALL_REFRESH_MS : false),
    staleTime: 0,
    gcTime: 0,
  });
