import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal } from './secret-box';

describe('secret box', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and never shows the plaintext in the sealed text', () => {
    const sealed = seal(key, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'two-factor:7');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('JBSWY3DP');
    expect(open(key, sealed, 'two-factor:7')).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    // A fresh nonce each time: the same secret twice does not look alike.
    expect(seal(key, 'same', 'c')).not.toBe(seal(key, 'same', 'c'));
  });

  it('refuses another key, another context and a changed value', () => {
    const sealed = seal(key, 'secret', 'two-factor:7');
    expect(() => open(randomBytes(32), sealed, 'two-factor:7')).toThrow();
    expect(() => open(key, sealed, 'two-factor:8')).toThrow();
    const [version, iv, tag, body = ''] = sealed.split('.');
    const flipped = `${body.startsWith('A') ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => open(key, [version, iv, tag, flipped].join('.'), 'two-factor:7')).toThrow();
    expect(() => open(key, 'plain text', 'two-factor:7')).toThrow();
  });
});
