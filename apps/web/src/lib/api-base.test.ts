import { describe, expect, it } from 'vitest';
import { apiBase, runsInNativeShell } from './api-base';

describe('where the API is', () => {
  it('is this origin on the web, whatever the build names', () => {
    expect(apiBase(undefined, false)).toBe('/api');
    expect(apiBase('https://parley.example-school.org', false)).toBe('/api');
  });

  it("is the school's server in the native app", () => {
    expect(apiBase('https://parley.example-school.org/', true)).toBe('https://parley.example-school.org/api');
    expect(apiBase(' https://parley.example-school.org ', true)).toBe(
      'https://parley.example-school.org/api',
    );
    // A native build without a server (cap sync in the test command) keeps the relative path.
    expect(apiBase(undefined, true)).toBe('/api');
  });

  it("knows the native shell by Capacitor's bridge", () => {
    expect(runsInNativeShell({})).toBe(false);
    expect(runsInNativeShell({ Capacitor: { isNativePlatform: () => false } })).toBe(false);
    expect(runsInNativeShell({ Capacitor: { isNativePlatform: () => true } })).toBe(true);
  });
});
