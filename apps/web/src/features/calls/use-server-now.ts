import { useEffect, useState } from 'react';
import { clockSkew } from './call-logic';

/**
 * The server's clock, read each second: the time it gave in an answer (`serverNow`), moved on by this
 * device's clock since the answer came (`receivedAt`), however long the page waited before it asked.
 */
export function useServerNow(serverNow: string, receivedAt: number): number {
  const skew = clockSkew(serverNow, receivedAt);
  const [now, setNow] = useState(() => Date.now() + skew);
  useEffect(() => {
    const tick = () => setNow(Date.now() + skew);
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [skew]);
  return now;
}
