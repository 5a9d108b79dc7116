/**
 * Runs `run` once the page is idle (at the latest after 5 s; 2 s where the browser has no idle callback):
 * work the page does not need to be used. Returns a function that cancels it.
 */
export function onIdle(run: () => void): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(run, { timeout: 5000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(run, 2000);
  return () => clearTimeout(id);
}
