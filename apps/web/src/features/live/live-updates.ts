import { LiveChannel } from '../../lib/live-channel';
import { queryClient } from '../../lib/query-client';
import { getAccessToken, subscribeSession } from '../../lib/session';
import { HOME_QUERY_KEY } from '../home/home-query-key';

// What the live channel's news refreshes (lib/live-channel.ts): a teacher running late changes the home
// of the families still to see them, their booking pages and the teacher's schedule. Signed in, the
// session opens the channel; a family on its booking page by the personal link of a mail opens it with
// that link. Loaded once the page is idle (main.tsx): no page needs it to be used.

let channel: LiveChannel | null = null;
let link: string | null = null;

const refresh = () =>
  Promise.all(
    [HOME_QUERY_KEY, ['booking', 'page'], ['my-events']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );

function follow(): void {
  const token = getAccessToken();
  channel?.use(token ? { token } : link ? { link } : null);
}

/** Opens the channel for whoever the page is (once), and keeps it to the session as it changes. */
export function startLiveUpdates(): void {
  if (channel) return;
  const live = new LiveChannel({
    onNews: (news) => {
      if (news.type === 'timing') void refresh();
      // A family joined or left one of the teacher's calls: the call page's "next" line.
      if (news.type === 'call-presence') void queryClient.invalidateQueries({ queryKey: ['calls'] });
    },
    // The session or link has ended since (signed out elsewhere, revoked): what the page shows is asked
    // for again, and the API's answer signs it out.
    onRefused: () => void queryClient.invalidateQueries(),
  });
  channel = live;
  subscribeSession(follow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') live.wake();
  });
  window.addEventListener('online', () => live.wake());
  follow();
}

/** The booking page's personal link (null when it closes): the channel's credential without a session. */
export function followBookingLink(next: string | null): void {
  link = next;
  startLiveUpdates();
  follow();
}
