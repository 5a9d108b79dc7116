import { describe, expect, it } from 'vitest';
import { z } from './zod';

describe('z', () => {
  it("holds the builders the schemas use, not zod's locales nor its JSON Schema converters", () => {
    // A bundle keeps a namespace value whole: with these, every page that checks a form loaded some
    // 60 KB more (gzipped) of zod than it runs.
    expect(Object.keys(z)).not.toContain('locales');
    expect(Object.keys(z)).not.toContain('toJSONSchema');
    expect(Object.keys(z)).not.toContain('fromJSONSchema');
    expect(z.object({ name: z.string() }).parse({ name: 'Ada' })).toEqual({ name: 'Ada' });
  });
});
