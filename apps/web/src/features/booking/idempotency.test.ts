import { describe, expect, it } from 'vitest';
import { createIdempotencyKeys } from './idempotency';

function counter() {
  let next = 0;
  return () => `key-${++next}`;
}

describe('idempotency keys', () => {
  it('gives every new action a fresh key', () => {
    const keys = createIdempotencyKeys(counter());
    expect(keys.keyFor('book 1')).toBe('key-1');
    keys.settle('book 1', 'done');
    expect(keys.keyFor('book 1')).toBe('key-2');
    keys.settle('book 1', 'done');
    expect(keys.keyFor('book 2')).toBe('key-3');
  });

  it('reuses the key when the same action is retried after a network failure', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor('book 1');
    keys.settle('book 1', 'retryable');
    expect(keys.keyFor('book 1')).toBe(first);
    keys.settle('book 1', 'done');
    expect(keys.keyFor('book 1')).not.toBe(first);
  });

  it('does not carry a failed key over to a different action', () => {
    const keys = createIdempotencyKeys(counter());
    keys.keyFor('book 1');
    keys.settle('book 1', 'retryable');
    expect(keys.keyFor('book 2')).toBe('key-2');
  });

  it('uses crypto.randomUUID by default', () => {
    const keys = createIdempotencyKeys();
    const key = keys.keyFor('x');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });
});
