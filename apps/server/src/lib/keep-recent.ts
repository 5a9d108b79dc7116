/**
 * Sets `key` as the most recent entry of a map kept in order of use (a Map iterates in insertion order),
 * first dropping the least recent when the map already holds `max`: what each process keeps stays bounded.
 */
export function keepRecent<K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
  max: number,
  forget: (key: K) => void = (oldest) => map.delete(oldest),
): void {
  map.delete(key);
  if (map.size >= max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) forget(oldest);
  }
  map.set(key, value);
}
