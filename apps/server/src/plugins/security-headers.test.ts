import { describe, expect, it } from 'vitest';
import { appPolicy, referrerPolicyFor, swaggerUiCsp } from './security-headers';

const http = { appUrl: 'http://localhost:3000', turnstileSiteKey: undefined };
const https = { appUrl: 'https://parley.example', turnstileSiteKey: undefined };

describe('security header rules', () => {
  it('sends no Referer from an address with a token parameter, the origin only elsewhere', () => {
    expect(referrerPolicyFor('/book/event/X1?link=a.b')).toBe('no-referrer');
    expect(referrerPolicyFor('/auth/verify-email?token=t')).toBe('no-referrer');
    expect(referrerPolicyFor('/auth/verify-email?token=')).toBe('no-referrer');
    expect(referrerPolicyFor('/auth/login?returnTo=%2Fhome')).toBe('strict-origin-when-cross-origin');
    expect(referrerPolicyFor('/home')).toBe('strict-origin-when-cross-origin');
    expect(referrerPolicyFor('/home?tokens=1&linkx=2')).toBe('strict-origin-when-cross-origin');
  });

  it('never allows inline code: a nonce or nothing', () => {
    expect(appPolicy(http, 'abc')).toContain("script-src 'self' 'nonce-abc';");
    expect(appPolicy(http)).toContain("script-src 'self';");
    expect(appPolicy(http, 'abc')).not.toMatch(/unsafe-(inline|eval)/);
    expect(appPolicy(https)).toMatch(/; upgrade-insecure-requests$/);
  });

  it("lets the installable app load its own service worker and manifest, nobody else's", () => {
    const directives = appPolicy(http, 'abc').split('; ');
    expect(directives).toContain("worker-src 'self'");
    expect(directives).toContain("manifest-src 'self'");
  });

  it("Swagger UI's own policy is never framed, and upgrades requests only over HTTPS", () => {
    const header =
      "default-src 'self'; frame-ancestors 'self'; style-src 'self' https:; upgrade-insecure-requests;";
    const logo = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
    expect(swaggerUiCsp(http).transformStaticCSP(header)).toBe(
      `default-src 'self'; frame-ancestors 'none'; style-src 'self' https: ${logo};`,
    );
    expect(swaggerUiCsp(https).transformStaticCSP(header)).toBe(
      `default-src 'self'; frame-ancestors 'none'; style-src 'self' https: ${logo}; upgrade-insecure-requests;`,
    );
  });
});
