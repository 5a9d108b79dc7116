import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetKept, keep, readKept, searchWithout, urlTokenKey, useUrlToken } from './url-token';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

function TokenProbe() {
  return <output>{useUrlToken('token') ?? 'none'}</output>;
}

function renderProbe(path: string) {
  const router = createMemoryRouter([{ path: '/auth/reset-password', element: <TokenProbe /> }], {
    initialEntries: [path],
  });
  const view = render(<RouterProvider router={router} />);
  return { router, view };
}

describe('searchWithout', () => {
  it('drops one parameter and keeps the others, or says there was none', () => {
    expect(searchWithout('?token=abc', 'token')).toBe('');
    expect(searchWithout('?token=abc&tab=2', 'token')).toBe('?tab=2');
    expect(searchWithout('?link=a.b&token=c', 'link')).toBe('?token=c');
    expect(searchWithout('?tab=2', 'token')).toBeNull();
    expect(searchWithout('', 'token')).toBeNull();
  });
});

describe('the tab store', () => {
  it('keeps a value in sessionStorage for the tab and forgets it', () => {
    keep('k', 'v1');
    expect(sessionStorage.getItem('k')).toBe('v1');
    expect(readKept('k')).toBe('v1');
    forgetKept('k');
    expect(readKept('k')).toBeNull();
  });

  it('falls back to memory when sessionStorage is unavailable', () => {
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    keep('k', 'v2');
    expect(readKept('k')).toBe('v2');
    forgetKept('k');
    expect(readKept('k')).toBeNull();
  });
});

describe('useUrlToken', () => {
  it('reads the token, keeps it, and takes it out of the address without a new history entry', async () => {
    const { router } = renderProbe('/auth/reset-password?token=secret-1&tab=2#top');
    expect(screen.getByRole('status').textContent).toBe('secret-1');
    await vi.waitFor(() => expect(router.state.location.search).toBe('?tab=2'));
    expect(router.state.location.hash).toBe('#top');
    expect(router.state.historyAction).toBe('REPLACE');
    // Still there once the address no longer has it.
    expect(screen.getByRole('status').textContent).toBe('secret-1');
    expect(sessionStorage.getItem(urlTokenKey('/auth/reset-password', 'token'))).toBe('secret-1');
  });

  it('finds the kept token again after a reload of the page without it', async () => {
    const first = renderProbe('/auth/reset-password?token=secret-2');
    await vi.waitFor(() => expect(first.router.state.location.search).toBe(''));
    first.view.unmount();

    renderProbe('/auth/reset-password');
    expect(screen.getByRole('status').textContent).toBe('secret-2');
  });

  it('prefers a new token in the address over a kept one', async () => {
    keep(urlTokenKey('/auth/reset-password', 'token'), 'old');
    const { router } = renderProbe('/auth/reset-password?token=new');
    await vi.waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('status').textContent).toBe('new');
    expect(readKept(urlTokenKey('/auth/reset-password', 'token'))).toBe('new');
  });

  it('is null when the page never had one, and leaves the address alone', async () => {
    const { router } = renderProbe('/auth/reset-password?tab=2');
    await act(async () => {});
    expect(screen.getByRole('status').textContent).toBe('none');
    expect(router.state.location.search).toBe('?tab=2');
    expect(router.state.historyAction).toBe('POP');
  });
});
