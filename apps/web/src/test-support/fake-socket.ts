// A WebSocket the test drives: it records what is sent and how it was closed, and emits what the test says
// the server did (open, a message, a close with its code).

type Listener = (event: { data?: unknown; code?: number }) => void;

export class FakeSocket {
  readonly sent: string[] = [];
  readyState = 0;
  closedWith: number | null = null;
  private readonly listeners = new Map<string, Listener[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close(code = 1000) {
    this.closedWith = code;
  }
  emit(type: string, event: { data?: unknown; code?: number } = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}
