import { describe, expect, it, vi } from 'vitest';
import { parsePush, registerPushHandlers } from './push';

// The service worker's push side, driven with the events a browser dispatches. The worker scope is a
// stand-in (jsdom has none): clients, registration and location are what the handlers touch.

function scope(pages: Array<{ url: string }>) {
  const target = new EventTarget();
  const clients = pages.map((page) => ({
    url: page.url,
    postMessage: vi.fn(),
    focus: vi.fn(),
    navigate: vi.fn(),
  }));
  for (const client of clients) client.focus.mockResolvedValue(client);
  const sw = Object.assign(target, {
    location: { origin: 'https://parley.example' },
    registration: { showNotification: vi.fn().mockResolvedValue(undefined) },
    clients: { matchAll: vi.fn().mockResolvedValue(clients), openWindow: vi.fn().mockResolvedValue(null) },
  });
  registerPushHandlers(sw as unknown as ServiceWorkerGlobalScope);
  return { sw, clients };
}

async function dispatch(target: EventTarget, type: string, extra: Record<string, unknown>) {
  const waits: Promise<unknown>[] = [];
  const event = Object.assign(new Event(type), extra, { waitUntil: (p: Promise<unknown>) => waits.push(p) });
  target.dispatchEvent(event);
  await Promise.all(waits);
  return waits.length;
}

const push = (payload: unknown) => ({ data: { text: () => JSON.stringify(payload) } });

describe('sw/push', () => {
  it('refresh_home tells every open page and shows nothing', async () => {
    const { sw, clients } = scope([
      { url: 'https://parley.example/home' },
      { url: 'https://parley.example/x' },
    ]);
    await dispatch(sw, 'push', push({ action: 'refresh_home', title: '', body: '', url: '/home' }));
    expect(sw.registration.showNotification).not.toHaveBeenCalled();
    for (const client of clients) expect(client.postMessage).toHaveBeenCalledWith({ type: 'refresh_home' });
  });

  it('a booking push is shown with its url and refreshes home too', async () => {
    const { sw, clients } = scope([{ url: 'https://parley.example/home' }]);
    await dispatch(
      sw,
      'push',
      push({ action: 'booking', title: 'Booked', body: '16:00', url: '/book/ptevent/abc' }),
    );
    expect(sw.registration.showNotification).toHaveBeenCalledWith('Booked', {
      body: '16:00',
      icon: '/icons/icon-192.png',
      data: { url: '/book/ptevent/abc' },
    });
    expect(clients[0]?.postMessage).toHaveBeenCalledWith({ type: 'refresh_home' });
  });

  it('ignores a push that is not ours', async () => {
    const { sw } = scope([]);
    expect(await dispatch(sw, 'push', { data: { text: () => 'hello' } })).toBe(0);
    expect(await dispatch(sw, 'push', { data: null })).toBe(0);
    expect(parsePush('{"action":"booking","url":"https://evil.example"}')?.url).toBe('/home');
    expect(parsePush('{"action":"booking","url":"//evil.example"}')?.url).toBe('/home');
    // Only the actions the server sends (PUSH_ACTIONS): another one is not ours, shown nowhere.
    const open = scope([{ url: 'https://parley.example/home' }]);
    const waits = await dispatch(open.sw, 'push', push({ action: 'hello', title: 'Hi', body: '', url: '/' }));
    expect(waits).toBe(0);
    expect(open.sw.registration.showNotification).not.toHaveBeenCalled();
    expect(open.clients[0]?.postMessage).not.toHaveBeenCalled();
  });

  it('a click focuses an open Parley window on the url, or opens one', async () => {
    const notification = (url: string) => ({ notification: { close: vi.fn(), data: { url } } });
    const open = scope([{ url: 'https://parley.example/home' }]);
    await dispatch(open.sw, 'notificationclick', notification('/book/event/x'));
    expect(open.clients[0]?.focus).toHaveBeenCalled();
    expect(open.clients[0]?.navigate).toHaveBeenCalledWith('https://parley.example/book/event/x');

    const none = scope([]);
    await dispatch(none.sw, 'notificationclick', notification('/home'));
    expect(none.sw.clients.openWindow).toHaveBeenCalledWith('https://parley.example/home');
  });
});
