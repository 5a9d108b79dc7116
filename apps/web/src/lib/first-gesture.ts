/**
 * Runs `run` once, at the first key pressed or pointer put down anywhere on the page (or the first of
 * other `events`): work a person will need soon but not to see the page (the home page's chunks while
 * they sign in), kept out of the page's start on a slow phone. Returns a function that stops waiting.
 */
export function onFirstGesture(
  run: () => void,
  events: readonly (keyof WindowEventMap)[] = ['keydown', 'pointerdown'],
): () => void {
  const stop = () => {
    for (const name of events) window.removeEventListener(name, once, true);
  };
  const once = () => {
    stop();
    run();
  };
  for (const name of events) window.addEventListener(name, once, true);
  return stop;
}
