import { cleanup, screen, waitFor } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { renderToString } from 'react-dom/server';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isPrerendered,
  PHONE_QUERY,
  PRERENDERED,
  PRERENDERED_STALE,
  type PrerenderedPage,
  prerenderedDocument,
  takeOverPrerendered,
} from './prerendered';

/** A form with a field of react-hook-form's (uncontrolled) and a controlled one. */
function SignIn({ tone = 'dark' }: { tone?: string }) {
  const {
    register,
    watch,
    formState: { errors },
  } = useForm({ defaultValues: { email: '' }, mode: 'onTouched' });
  const [note, setNote] = useState('');
  return (
    <form className={tone}>
      <input
        aria-label="Email"
        type="email"
        {...register('email', { pattern: { value: /@/, message: 'No @' } })}
      />
      <p role="alert">{errors.email?.message}</p>
      <textarea aria-label="Note" value={note} onChange={(event) => setNote(event.target.value)} />
      <output aria-label="Typed">{`${watch('email')}|${note}`}</output>
    </form>
  );
}

/** A page as the build prerenders it: the app's markup in a marked #root, its styles marked too. */
function prerendered(app: ReactNode, css = ''): HTMLElement {
  const container = document.createElement('div');
  container.id = 'root';
  container.setAttribute(PRERENDERED, '');
  container.innerHTML = renderToString(app);
  document.body.append(container);
  const style = document.createElement('style');
  style.setAttribute(PRERENDERED, '');
  style.textContent = css;
  document.head.append(style);
  return container;
}

afterEach(() => {
  stopHeadScriptTimers();
  cleanup();
  localStorage.clear();
  for (const script of document.head.querySelectorAll('script')) script.remove();
  document.body.innerHTML = '';
  document.documentElement.classList.remove(PRERENDERED_STALE);
});

describe('takeOverPrerendered', () => {
  it('keeps the prerendered elements, what was typed into them and the focus, and the form state has it', async () => {
    const container = prerendered(<SignIn />);
    expect(isPrerendered(container)).toBe(true);
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    const note = screen.getByLabelText<HTMLTextAreaElement>('Note');
    email.value = 'pat@example.org';
    note.value = 'Running late';
    note.focus();

    await takeOverPrerendered(container, Promise.resolve(), <SignIn />);

    expect(screen.getByLabelText('Email')).toBe(email);
    expect(screen.getByLabelText('Note')).toBe(note);
    expect(document.activeElement).toBe(note);
    await waitFor(() =>
      expect(screen.getByLabelText('Typed').textContent).toBe('pat@example.org|Running late'),
    );
    expect(email.value).toBe('pat@example.org');
    expect(note.value).toBe('Running late');
    expect(isPrerendered(container)).toBe(false);
    expect(document.querySelector(`style[${PRERENDERED}]`)).toBeNull();
  });

  it('tells the app a field typed into and left was left: the form checks it as it would have', async () => {
    const container = prerendered(<SignIn />);
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    email.value = 'not-an-address';
    screen.getByLabelText('Note').focus();
    await takeOverPrerendered(container, Promise.resolve(), <SignIn />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('No @'));
  });

  it('puts the prerender’s element styles back on their elements before the prerendered stylesheet goes', async () => {
    const container = prerendered(
      <p data-prerendered-style="0">Hi</p>,
      '[data-prerendered-style="0"]{opacity:0.5!important}',
    );
    const paragraph = container.querySelector('p');
    await takeOverPrerendered(container, Promise.resolve(), <p>Hi</p>);
    expect(container.querySelector('p')).toBe(paragraph);
    expect(paragraph?.style.opacity).toBe('0.5');
    expect(paragraph?.hasAttribute('data-prerendered-style')).toBe(false);
  });

  it("renders once the page's chunks are in, and anyway when one failed to load", async () => {
    const container = prerendered(<SignIn />);
    let loaded: () => void = () => {};
    const taking = takeOverPrerendered(
      container,
      new Promise<void>((resolve) => (loaded = resolve)),
      <SignIn />,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(isPrerendered(container)).toBe(true);
    loaded();
    await taking;
    expect(isPrerendered(container)).toBe(false);

    const again = prerendered(<SignIn />);
    await takeOverPrerendered(again, Promise.reject(new Error('offline')), <SignIn />);
    expect(isPrerendered(again)).toBe(false);
  });
});

/** A toggle and a form: what a tap or an Enter before the app runs would reach. */
function Toggle() {
  const [on, setOn] = useState(false);
  const [sent, setSent] = useState(0);
  const [ticked, setTicked] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setSent((count) => count + 1);
      }}
    >
      <input aria-label="Code" />
      <input
        type="checkbox"
        aria-label="Maths"
        checked={ticked}
        onChange={() => setTicked((value) => !value)}
      />
      <button type="button" onClick={() => setOn((value) => !value)}>
        {on ? 'Dark mode' : 'Light mode'}
      </button>
      <a href="#elsewhere">Elsewhere</a>
      <output aria-label="Sent">{sent}</output>
    </form>
  );
}

/** index.html as the build writes it, reduced to what a prerendered page changes. */
const TEMPLATE =
  '<html><head><meta property="csp-nonce" nonce="N">' +
  '<script type="module" crossorigin src="/assets/index-AAAAAAAA.js" nonce="N"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-BBBBBBBB.js" nonce="N"></head>' +
  '<body><div id="root"></div></body></html>';
const PAGE = {
  takeOver: 'at-once' as const,
  markup: '<p>Hi</p>',
  styles: { names: ['abc', 'def'], css: '.css-abc{color:red}' },
  globalCss: '',
};

/** The timers the inline scripts run by the tests set: stopped after each test, so none fires into the
 * next one, or after the file's window is gone. */
const headScriptTimers: { timeouts: ReturnType<typeof setTimeout>[]; frames: number[] } = {
  timeouts: [],
  frames: [],
};
function stopHeadScriptTimers() {
  for (const timeout of headScriptTimers.timeouts.splice(0)) clearTimeout(timeout);
  for (const frame of headScriptTimers.frames.splice(0)) cancelAnimationFrame(frame);
}

/** Runs the page's inline script, as the browser does before the body (jsdom runs no scripts itself). */
function runHeadScript(page: PrerenderedPage = PAGE) {
  const script =
    /<script nonce="N">([\s\S]*?)<\/script>/.exec(prerenderedDocument(TEMPLATE, page))?.[1] ?? '';
  const timeout = (callback: () => void, ms?: number) => {
    const handle = setTimeout(callback, ms);
    headScriptTimers.timeouts.push(handle);
    return handle;
  };
  const frame = (callback: FrameRequestCallback) => {
    const handle = requestAnimationFrame(callback);
    headScriptTimers.frames.push(handle);
    return handle;
  };
  new Function('setTimeout', 'requestAnimationFrame', script)(timeout, frame);
}

describe("the prerendered page's inline script", () => {
  it("keeps a tap on a button and an Enter for the app, blocks the browser's own submit, leaves links alone", async () => {
    const container = prerendered(<Toggle />);
    runHeadScript();
    const tap = new MouseEvent('click', { bubbles: true, cancelable: true });
    screen.getByRole('button', { name: 'Light mode' }).dispatchEvent(tap);
    expect(tap.defaultPrevented).toBe(true);
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    screen.getByLabelText('Code').dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    container.querySelector('form')?.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    const follow = new MouseEvent('click', { bubbles: true, cancelable: true });
    screen.getByRole('link', { name: 'Elsewhere' }).dispatchEvent(follow);
    expect(follow.defaultPrevented).toBe(false);

    await takeOverPrerendered(container, Promise.resolve(), <Toggle />);
    // The early tap and Enter, given to the app: the toggle toggled once, the form was sent once.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Dark mode' })).toBeTruthy());
    expect(screen.getByLabelText('Sent').textContent).toBe('1');
    const later = new MouseEvent('click', { bubbles: true, cancelable: true });
    screen.getByRole('button', { name: 'Dark mode' }).dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Light mode' })).toBeTruthy());
  });

  it('holds a tap back until the app has hydrated, then drops its early listeners; a stale page is drawn afresh', async () => {
    const container = prerendered(<Toggle />);
    container.setAttribute(PRERENDERED, 'when-idle');
    runHeadScript({ ...PAGE, takeOver: 'when-idle' });
    const removed = vi.spyOn(document, 'removeEventListener');
    const taking = takeOverPrerendered(container, Promise.resolve(), <Toggle />);
    // A tap while React hydrates reaches neither the half-hydrated app nor the browser: it waits its turn.
    const tap = new MouseEvent('click', { bubbles: true, cancelable: true });
    screen.getByRole('button', { name: 'Light mode' }).dispatchEvent(tap);
    expect(tap.defaultPrevented).toBe(true);
    await taking;
    expect(isPrerendered(container)).toBe(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Dark mode' })).toBeTruthy());
    // The listener that starts the app at a gesture is gone with the rest of the early ones.
    const early = (window as { __parleyPrerendered?: { go?: () => void } }).__parleyPrerendered;
    expect(early?.go).toBeTypeOf('function');
    for (const gesture of ['pointerdown', 'keydown', 'input'])
      expect(removed).toHaveBeenCalledWith(gesture, early?.go, true);
    expect(removed).toHaveBeenCalledWith('click', expect.any(Function), true);
    removed.mockRestore();

    cleanup();
    document.body.innerHTML = '';
    const stale = prerendered(<Toggle />);
    document.documentElement.classList.add(PRERENDERED_STALE); // hidden: the app must show its own page
    const form = stale.querySelector('form');
    await takeOverPrerendered(stale, Promise.resolve(), <Toggle />);
    expect(isPrerendered(stale)).toBe(false);
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(false);
    // Drawn afresh, not hydrated (no colour fades from the other theme).
    expect(stale.querySelector('form')).not.toBe(form);
    expect(stale.querySelectorAll('form')).toHaveLength(1);
  });

  it('lets a box ticked early tick, and the app has it ticked once it takes over', async () => {
    const container = prerendered(<Toggle />);
    runHeadScript();
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Maths' });
    const tap = new MouseEvent('click', { bubbles: true, cancelable: true });
    box.dispatchEvent(tap);
    expect(tap.defaultPrevented).toBe(false);
    expect(box.checked).toBe(true); // the browser's own toggle, shown at once

    await takeOverPrerendered(container, Promise.resolve(), <Toggle />);
    expect(screen.getByRole('checkbox', { name: 'Maths' })).toBe(box);
    await waitFor(() => expect(box.checked).toBe(true));
    // The app's state, not the element's alone: a tap now unticks it.
    box.click();
    await waitFor(() => expect(box.checked).toBe(false));
  });

  it('hides a page rendered for another layout than the window’s, until the app takes over', () => {
    const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
    const phoneWindow = (phone: boolean) =>
      Object.defineProperty(window, 'matchMedia', {
        configurable: true,
        value: (media: string) => ({ media, matches: phone && media === PHONE_QUERY }),
      });
    phoneWindow(true);
    runHeadScript({ ...PAGE, viewport: 'phone' });
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(false);
    runHeadScript({ ...PAGE, viewport: 'desktop' });
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(true);
    document.documentElement.classList.remove(PRERENDERED_STALE);
    phoneWindow(false);
    runHeadScript({ ...PAGE, viewport: 'desktop' });
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(false);
    runHeadScript(PAGE); // a page with one layout for all
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(false);
    if (original) Object.defineProperty(window, 'matchMedia', original);
    else Reflect.deleteProperty(window, 'matchMedia');
  });

  it('moves a personal link from the address into the tab before the first paint; without one, a tab that keeps one sees its own page', () => {
    const keep = { param: 'link', key: 'bookingLink:ABC' };
    window.history.replaceState(null, '', '/book/ptevent/ABC?link=s3cret&x=1#top');
    runHeadScript({ ...PAGE, keep });
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/book/ptevent/ABC?x=1#top',
    );
    expect(sessionStorage.getItem('bookingLink:ABC')).toBe('s3cret');
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(false);
    // The same address without the link (a reload): rendered for a stranger, not for this tab's family.
    runHeadScript({ ...PAGE, keep });
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(true);
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('hides the page from a visitor with a session or the light theme, until the app takes over', () => {
    runHeadScript();
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(false);
    localStorage.setItem('theme', 'light');
    runHeadScript();
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(true);
    document.documentElement.classList.remove(PRERENDERED_STALE);
    localStorage.clear();
    localStorage.setItem('ACCESS_TOKEN', 'token');
    runHeadScript();
    expect(document.documentElement.classList.contains(PRERENDERED_STALE)).toBe(true);
  });

  it("shows a signed-in visitor's page (home) only to a browser whose stored session is that user's", () => {
    const stale = () => {
      const hidden = document.documentElement.classList.contains(PRERENDERED_STALE);
      document.documentElement.classList.remove(PRERENDERED_STALE);
      return hidden;
    };
    const home = { ...PAGE, visitor: 42 };
    localStorage.clear();
    runHeadScript(home); // signed out here: the cookie outlived the session in this browser
    expect(stale()).toBe(true);
    localStorage.setItem('ACCESS_TOKEN', 'token');
    localStorage.setItem('currentUser', JSON.stringify({ id: 42 }));
    runHeadScript(home);
    expect(stale()).toBe(false);
    localStorage.setItem('currentUser', JSON.stringify({ id: 7 })); // another user signed in since
    runHeadScript(home);
    expect(stale()).toBe(true);
    for (const damaged of ['{', 'null', '42']) {
      localStorage.setItem('currentUser', damaged);
      runHeadScript(home);
      expect(stale(), damaged).toBe(true);
    }
    localStorage.removeItem('currentUser');
    runHeadScript(home);
    expect(stale()).toBe(true);
    // The light theme hides it as any other page.
    localStorage.setItem('currentUser', JSON.stringify({ id: 42 }));
    localStorage.setItem('theme', 'light');
    runHeadScript(home);
    expect(stale()).toBe(true);
    localStorage.clear();
  });

  it('paints the page whole, then starts the app: its script tags wait in a template until then', async () => {
    const whenIdle = { ...PAGE, takeOver: 'when-idle' as const };
    const html = prerenderedDocument(TEMPLATE, {
      ...whenIdle,
      styles: { ...PAGE.styles, css: 'p::after{content:"</style>"}' },
      globalCss: 'body{margin:0}',
    });
    const [head = '', body = ''] = html.split('</head>');
    // Nothing of the app's is fetched before the page is painted: its tags are in the inert template.
    const held = /<template id="prerendered-scripts">(.*)<\/template>/.exec(head)?.[1] ?? '';
    expect(held).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/react-BBBBBBBB.js" nonce="N">' +
        '<script type="module" crossorigin src="/assets/index-AAAAAAAA.js" nonce="N"></script>',
    );
    expect(head.replace(held, '')).not.toMatch(/modulepreload|type="module"/);
    expect(head).toContain('<link rel="expect" href="#prerendered-end" blocking="render">');
    expect(body).toContain(
      `<div id="root" ${PRERENDERED}="when-idle"><p>Hi</p></div><div id="prerendered-end" hidden></div>`,
    );
    // The components' styles under emotion's names, which the app's emotion takes as already written.
    expect(head).toContain(
      '<style data-emotion="css abc def" data-s="" nonce="N">p::after{content:"<\\/style>"}</style>',
    );
    expect(head).toContain(`<style ${PRERENDERED} nonce="N">.${PRERENDERED_STALE} #root{visibility:hidden}`);
    expect(head).toContain('body{margin:0}</style>');
    expect(() => prerenderedDocument('<html></html>', PAGE)).toThrow();

    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const appTags = () => document.head.querySelectorAll('script[type="module"], link[rel="modulepreload"]');
    const heldBack = () => {
      for (const tag of appTags()) tag.remove();
      document.getElementById('prerendered-scripts')?.remove();
      document.head.insertAdjacentHTML('beforeend', `<template id="prerendered-scripts">${held}</template>`);
    };
    await painted();
    for (const script of document.head.querySelectorAll('script')) script.remove(); // the tests' before
    heldBack();
    runHeadScript(whenIdle);
    expect(appTags()).toHaveLength(0);
    await painted();
    // Painted: the app's files are fetched, and it runs once the browser is idle.
    const preload = document.head.querySelectorAll('link[rel="modulepreload"]');
    expect([...preload].map((link) => link.getAttribute('href'))).toEqual(['/assets/react-BBBBBBBB.js']);
    expect(document.head.querySelector('script[type="module"]')).toBeNull();
    expect(idle).toHaveLength(1);
    idle[0]?.();
    const entry = document.head.querySelectorAll<HTMLScriptElement>('script[type="module"]');
    expect(entry).toHaveLength(1);
    expect(entry[0]?.getAttribute('src')).toBe('/assets/index-AAAAAAAA.js');
    expect(entry[0]?.nonce).toBe('N');

    // A gesture before the page is idle starts it at once.
    heldBack();
    runHeadScript(whenIdle);
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(document.head.querySelectorAll('script[type="module"]')).toHaveLength(1);
    vi.unstubAllGlobals();

    // A page taken over at once needs the app for its content: its scripts are fetched at once. So does a
    // stale page (hidden until the app draws this visitor's own).
    for (const [page, stale] of [
      [PAGE, false],
      [whenIdle, true],
    ] as const) {
      heldBack();
      if (stale) localStorage.setItem('theme', 'light');
      runHeadScript(page);
      expect(document.head.querySelectorAll('script[type="module"]')).toHaveLength(1);
    }
    localStorage.clear();
    document.documentElement.classList.remove(PRERENDERED_STALE);
  });
});
