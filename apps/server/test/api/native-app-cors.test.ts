import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config';
import { createTestApp, type TestApp } from '../test-app';

// The native app calls the API from its WebView's origin (decision 017): those origins, and only those,
// get CORS answers; no credentials mode (the API takes a bearer token, never a cookie).

describe('the API across origins for the native app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(['capacitor://localhost', 'https://localhost'])('answers a preflight from %s', async (origin) => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-booking-link',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(String(response.headers['access-control-allow-headers'])).toContain('X-Booking-Link');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets the app read an answer, and its download name', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/site/push-key',
      headers: { origin: 'capacitor://localhost' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    expect(response.headers['access-control-expose-headers']).toBe('Content-Disposition');
    expect(String(response.headers.vary)).toContain('Origin');
  });

  it('allows no other origin, and nothing outside the API', async () => {
    for (const origin of ['https://evil.example', 'null', 'capacitor://localhost.evil.example']) {
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.statusCode).not.toBe(204);
      const get = await t.app.inject({ method: 'GET', url: '/api/site/push-key', headers: { origin } });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    }
    const page = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { origin: 'capacitor://localhost' },
    });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('takes its origins from NATIVE_APP_ORIGINS and refuses a malformed list', () => {
    expect(parseConfig({}).nativeAppOrigins).toEqual(['capacitor://localhost', 'https://localhost']);
    expect(
      parseConfig({ NATIVE_APP_ORIGINS: 'https://app.example, capacitor://localhost' }).nativeAppOrigins,
    ).toEqual(['https://app.example', 'capacitor://localhost']);
    expect(() => parseConfig({ NATIVE_APP_ORIGINS: 'https://app.example/path' })).toThrow(
      /NATIVE_APP_ORIGINS/,
    );
    expect(() => parseConfig({ NATIVE_APP_ORIGINS: '*' })).toThrow(/NATIVE_APP_ORIGINS/);
  });
});
