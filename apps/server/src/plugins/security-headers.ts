import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';

// Security headers on every answer (decision 011): a strict CSP (a fresh nonce per page for the app's
// bundles and emotion's <style> tags), no framing, no sniffing, no Referer that could carry a mailed token,
// HSTS over HTTPS, and the camera and microphone for our own origin only.

/** Written by Vite on every tag it emits (html.cspNonce in apps/web/vite.config.ts); each page swaps it. */
export const CSP_NONCE_PLACEHOLDER = 'PARLEY_CSP_NONCE';

/** The bot check's script and frame (Cloudflare Turnstile), allowed only when a site key is configured. */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/** Query parameters that carry a secret: the mails' ?token= (verify, reset, invite) and ?link= (booking). */
export const TOKEN_PARAMS: readonly string[] = ['token', 'link'];

/** JSON and other data answers: nothing may load from them, nothing may frame them. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const PERMISSIONS_POLICY = [
  'camera=(self)', // the door scanner, video appointments
  'microphone=(self)', // video appointments
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

export const HSTS = 'max-age=31536000; includeSubDomains';

type PolicyConfig = Pick<Config, 'appUrl' | 'turnstileSiteKey'>;

const isHttps = (config: PolicyConfig) => config.appUrl.startsWith('https://');

/** The app's policy; `nonce` is the page's own (static files get the policy without one). */
export function appPolicy(config: PolicyConfig, nonce?: string): string {
  const withNonce = nonce ? ` 'nonce-${nonce}'` : '';
  const turnstile = config.turnstileSiteKey ? ` ${TURNSTILE_ORIGIN}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${withNonce}${turnstile}`,
    `style-src 'self'${withNonce}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    // The installable app: its service worker (src/sw) and its web app manifest, both from our origin.
    "worker-src 'self'",
    "manifest-src 'self'",
    `frame-src ${turnstile ? TURNSTILE_ORIGIN : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(isHttps(config) ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const nonces = new WeakMap<FastifyReply, string>();

/** This answer's nonce (128 random bits), made on first use; the page and its CSP header share it. */
export function cspNonce(reply: FastifyReply): string {
  let nonce = nonces.get(reply);
  if (!nonce) {
    nonce = randomBytes(16).toString('base64');
    nonces.set(reply, nonce);
  }
  return nonce;
}

/** A link from a page whose address holds a token must not hand that address to the next site. */
export function referrerPolicyFor(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return 'strict-origin-when-cross-origin';
  const params = new URLSearchParams(url.slice(query + 1));
  return TOKEN_PARAMS.some((name) => params.has(name)) ? 'no-referrer' : 'strict-origin-when-cross-origin';
}

/** The one inline <style> Swagger UI writes (its top bar logo's colours; swagger-ui-dist 5.34). */
const SWAGGER_LOGO_STYLE = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

/**
 * Swagger UI (/api/docs) sets its own policy on its files (its page needs its scripts and styles); ours
 * is applied on top: never framed, and no forced upgrade when served over plain HTTP.
 */
export function swaggerUiCsp(config: PolicyConfig) {
  return {
    staticCSP: true,
    transformStaticCSP: (header: string) => {
      const policy = header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/style-src ([^;]*);/, `style-src $1 '${SWAGGER_LOGO_STYLE}';`);
      return isHttps(config) ? policy : policy.replace(/\s*upgrade-insecure-requests;?/, '');
    },
  };
}

export function registerSecurityHeaders(app: FastifyInstance, config: PolicyConfig): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    const nonce = nonces.get(reply);
    const type = String(reply.getHeader('content-type') ?? '');
    const isData = isApi || (!nonce && /json/i.test(type));
    reply.header('content-security-policy', isData ? API_POLICY : appPolicy(config, nonce));
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', isData ? 'no-referrer' : referrerPolicyFor(request.url));
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (isHttps(config)) reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
}
