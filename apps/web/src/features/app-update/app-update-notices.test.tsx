import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppUpdateNotices } from './app-update-notices';
import { APP_UPDATE_TEXT } from './app-update-text';
import { createAppUpdates, SERVICE_WORKER_URL, UPDATE_CHECK_INTERVAL_MS } from './app-updates';

// The prompt and the offline notice with the browser's service worker API replaced at its boundary
// (navigator.serviceWorker): registrations, workers and their events are plain EventTargets here.

class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  messages: unknown[] = [];
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  setState(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  waiting: FakeWorker | null = null;
  installing: FakeWorker | null = null;
  update = vi.fn(async () => {});
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null;
  registration = new FakeRegistration();
  register = vi.fn(async (_url: string, _options?: RegistrationOptions) => this.registration);
  constructor(controlled: boolean) {
    super();
    this.controller = controlled ? new FakeWorker() : null;
  }
}

function setup({ controlled = true, enabled = true, waiting = false } = {}) {
  const container = new FakeContainer(controlled);
  if (waiting) container.registration.waiting = new FakeWorker();
  const reload = vi.fn();
  const updates = createAppUpdates({
    enabled,
    container: () => container as unknown as ServiceWorkerContainer,
    reload,
  });
  render(<AppUpdateNotices updates={updates} />);
  return { container, reload };
}

/** A new version found by an update check: installing, then installed (and waiting). */
async function deployNewVersion(container: FakeContainer) {
  const worker = new FakeWorker();
  container.registration.installing = worker;
  act(() => container.registration.dispatchEvent(new Event('updatefound')));
  container.registration.installing = null;
  container.registration.waiting = worker;
  act(() => worker.setState('installed'));
  return worker;
}

const setOnline = (online: boolean) => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the new version prompt', () => {
  it('registers the service worker for the whole app', async () => {
    const { container } = setup();
    await waitFor(() => expect(container.register).toHaveBeenCalledWith(SERVICE_WORKER_URL, { scope: '/' }));
    expect(screen.queryByText(APP_UPDATE_TEXT.ready)).toBeNull();
  });

  it('does not register when disabled (the dev server, the native app)', async () => {
    const { container } = setup({ enabled: false });
    await Promise.resolve();
    expect(container.register).not.toHaveBeenCalled();
  });

  it('appears when an update check installs a new version, and Reload lets it take over then reloads', async () => {
    const { container, reload } = setup();
    await waitFor(() => expect(container.register).toHaveBeenCalled());
    await act(async () => {});
    const worker = await deployNewVersion(container);
    expect(await screen.findByText(APP_UPDATE_TEXT.ready)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: APP_UPDATE_TEXT.reload }));
    expect(worker.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    // Not before the new version controls the page: a reload now would load the old one again.
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('appears for a version that was already waiting when the page opened', async () => {
    setup({ waiting: true });
    expect(await screen.findByText(APP_UPDATE_TEXT.ready)).toBeTruthy();
  });

  it('stays away on the first install (no version controls the page yet)', async () => {
    const { container } = setup({ controlled: false });
    await waitFor(() => expect(container.register).toHaveBeenCalled());
    await act(async () => {});
    await deployNewVersion(container);
    expect(screen.queryByText(APP_UPDATE_TEXT.ready)).toBeNull();
  });

  it('only reloads when another tab has already let the new version take over', async () => {
    const { container, reload } = setup({ waiting: true });
    await screen.findByText(APP_UPDATE_TEXT.ready);
    const worker = container.registration.waiting as FakeWorker;
    worker.state = 'activated';
    fireEvent.click(screen.getByRole('button', { name: APP_UPDATE_TEXT.reload }));
    expect(worker.messages).toEqual([]);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('checks for a new version every hour and when the window gets the focus', async () => {
    vi.useFakeTimers();
    const { container } = setup();
    await act(async () => {});
    expect(container.register).toHaveBeenCalled();
    const { update } = container.registration;
    expect(update).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(UPDATE_CHECK_INTERVAL_MS - 1));
    expect(update).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(update).toHaveBeenCalledTimes(1);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(update).toHaveBeenCalledTimes(2);
  });
});

describe('the offline notice', () => {
  it('shows while the browser is offline and goes when it is back', async () => {
    setup();
    expect(screen.queryByText(APP_UPDATE_TEXT.offline)).toBeNull();
    setOnline(false);
    expect(screen.getByText(APP_UPDATE_TEXT.offline)).toBeTruthy();
    setOnline(true);
    await waitFor(() => expect(screen.queryByText(APP_UPDATE_TEXT.offline)).toBeNull());
  });
});
