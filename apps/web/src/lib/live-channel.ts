import type { LiveClientMessage } from '@parley/domain/live-schemas';
import { LIVE_CLOSE, type LiveMessage, readLiveMessage } from '@parley/domain/live-timing';
import { apiBase } from './api-base';

// The live channel (GET /api/live, a WebSocket; modules/live/ on the server): news of what changed for
// this person (a teacher running late), on which the page refetches through the API. One socket per
// page; its first message is the credential (a session or a personal link). Lost, it comes back after a
// growing pause, and at once when the page is shown again or the device is back online. Refused (4401: at
// the hello, or later when the session or link has ended since), it says so and waits for another credential.

export type LiveCredential = { token: string } | { link: string };

/** Pauses before reconnecting, growing with each failure in a row. */
export const LIVE_RETRY_MS = [1000, 2000, 5000, 10_000, 30_000] as const;

type Socket = Pick<WebSocket, 'send' | 'close' | 'readyState' | 'addEventListener'>;

export type LiveChannelOptions = {
  url?: string;
  onNews: (message: Exclude<LiveMessage, { type: 'ready' }>) => void;
  /** The hello was accepted (again, after each reconnect): a call page joins its call here. */
  onReady?: () => void;
  /** The credential names nobody (any more): the page finds out through the API, which signs it out. */
  onRefused?: () => void;
  /** Injectable for tests: the socket, the timer. */
  open?: (url: string) => Socket;
  setTimer?: (run: () => void, ms: number) => () => void;
};

/** ws(s)://host/api/live beside the API (the page's own origin, or the native app's server). */
export function liveUrl(
  base = apiBase(),
  page: { protocol: string; host: string } = window.location,
): string {
  const absolute = /^https?:\/\//.test(base) ? base : `${page.protocol}//${page.host}${base}`;
  return `${absolute.replace(/^http/, 'ws')}/live`;
}

export class LiveChannel {
  private socket: Socket | null = null;
  private credential: LiveCredential | null = null;
  private failures = 0;
  private ready = false;
  private refused = false;
  private cancelRetry: (() => void) | null = null;
  private readonly options: Required<LiveChannelOptions>;

  constructor(options: LiveChannelOptions) {
    this.options = {
      url: options.url ?? liveUrl(),
      open: options.open ?? ((url) => new WebSocket(url)),
      setTimer:
        options.setTimer ??
        ((run, ms) => {
          const id = setTimeout(run, ms);
          return () => clearTimeout(id);
        }),
      onNews: options.onNews,
      onReady: options.onReady ?? (() => {}),
      onRefused: options.onRefused ?? (() => {}),
    };
  }

  /** Connects with this credential (null: disconnects); the same one again changes nothing. */
  use(credential: LiveCredential | null): void {
    if (JSON.stringify(credential) === JSON.stringify(this.credential)) return;
    this.credential = credential;
    this.failures = 0;
    this.refused = false;
    this.disconnect();
    if (credential) this.connect();
  }

  /** The page is shown again, or the device is back online: a lost socket comes back now. */
  wake(): void {
    if (this.credential && !this.socket && !this.refused) {
      this.cancelRetry?.();
      this.cancelRetry = null;
      this.connect();
    }
  }

  /** Says something on the channel once its hello is accepted; false when it is not connected. */
  send(message: LiveClientMessage): boolean {
    if (!this.socket || !this.ready) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private connect(): void {
    const credential = this.credential;
    if (!credential) return;
    const socket = this.options.open(this.options.url);
    this.socket = socket;
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'hello', ...credential })));
    socket.addEventListener('message', (event) => {
      const message = readLiveMessage(String(event.data));
      if (message?.type === 'ready') {
        this.failures = 0;
        this.ready = true;
        this.options.onReady();
      } else if (message) this.options.onNews(message);
    });
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.ready = false;
      if (event.code === LIVE_CLOSE.unauthorized) {
        this.refused = true; // a new credential opens it again
        return this.options.onRefused();
      }
      const pause = LIVE_RETRY_MS[Math.min(this.failures, LIVE_RETRY_MS.length - 1)] ?? 30_000;
      this.failures += 1;
      this.cancelRetry = this.options.setTimer(() => {
        this.cancelRetry = null;
        this.connect();
      }, pause);
    });
  }

  private disconnect(): void {
    this.cancelRetry?.();
    this.cancelRetry = null;
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    socket?.close(1000, 'done');
  }
}
