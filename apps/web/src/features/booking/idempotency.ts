// One idempotency key per user action (spec: retries create no second booking). A fresh key for every
// new action; the same key again when the same action is retried after the request got no answer (the
// server may have booked it: the retry must return that result, not book twice).

export type IdempotencyKeys = {
  /** The key to send for an action whose body is described by `signature`. */
  keyFor(signature: string): string;
  /** After the request: `retryable` when no answer arrived (network failure), so a retry reuses the key. */
  settle(signature: string, outcome: 'done' | 'retryable'): void;
};

export function createIdempotencyKeys(newKey: () => string = () => globalThis.crypto.randomUUID()) {
  let pending: { signature: string; key: string } | null = null;
  const keys: IdempotencyKeys = {
    keyFor(signature) {
      if (pending && pending.signature === signature) return pending.key;
      pending = { signature, key: newKey() };
      return pending.key;
    },
    settle(signature, outcome) {
      if (outcome === 'done' && pending?.signature === signature) pending = null;
    },
  };
  return keys;
}
