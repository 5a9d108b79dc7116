import { type ComponentType, lazy } from 'react';

/**
 * A component whose module loads on first render, or earlier through preload(). Once loaded it renders
 * at once, without a suspended first pass (a page preloaded at start, a step fetched while the step before
 * it is shown, a test that loaded them all). Until then it suspends: the caller puts a Suspense around it.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined; // a failed download may be tried again
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Loadable(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Loadable, { preload });
}
