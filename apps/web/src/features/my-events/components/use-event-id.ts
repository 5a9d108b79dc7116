import { useParams, useSearchParams } from 'react-router';
import { readCurrentEvent } from '../api';
import { resolveEventId } from '../details-logic';

/** The event of a details page: /{id} in the path, else ?eventId, else the stored current event. */
export function useEventId(): number | null {
  const { id } = useParams();
  const [search] = useSearchParams();
  const queryId = search.get('eventId');
  return resolveEventId(id, queryId, id === undefined && queryId === null ? readCurrentEvent() : null);
}
