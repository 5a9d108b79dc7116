import { describe, expect, it } from 'vitest';
import { splitLinks } from './linkify';

describe('splitLinks', () => {
  it('turns URLs into link parts and keeps the rest as text', () => {
    const text = 'Verify school account: http://localhost:3000/auth/verify-school?token=abc123\n\n--\nBye.';
    expect(splitLinks(text)).toEqual([
      { kind: 'text', value: 'Verify school account: ' },
      { kind: 'link', value: 'http://localhost:3000/auth/verify-school?token=abc123' },
      { kind: 'text', value: '\n\n--\nBye.' },
    ]);
  });

  it('leaves trailing punctuation out of the link', () => {
    expect(splitLinks('Open https://x.test/a.')).toEqual([
      { kind: 'text', value: 'Open ' },
      { kind: 'link', value: 'https://x.test/a' },
      { kind: 'text', value: '.' },
    ]);
  });

  it('returns plain text unchanged', () => {
    expect(splitLinks('no links here')).toEqual([{ kind: 'text', value: 'no links here' }]);
    expect(splitLinks('')).toEqual([]);
  });
});
