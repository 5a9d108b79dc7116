import { TOKEN_TTL_MS } from '@parley/domain/constants';
import type { FastifyRequest } from 'fastify';
import { cookieValue } from './cookies';

// The page cookie (decision 028): the browser's sign-in token, kept where a page request carries it, so
// the server can render a signed-in page (home) for its visitor before any script has run. Only the
// page renderer reads it (plugins/web-app.ts), to ask the API for that page's answers as the visitor;
// the API itself reads the Authorization header alone, so a request another site makes the browser send
// carries no power. HttpOnly: no script reads it, not even ours.

const NAME = 'parley-page';
/** A sign-in token as lib/tokens makes them (base64url): anything else in the cookie is not ours. */
const TOKEN = /^[\w-]{20,200}$/;

/**
 * Over HTTPS, or behind a proxy that says it took HTTPS even when TRUST_PROXY does not name it: Secure
 * only ever narrows where the cookie goes, so anyone's word for it is safe to take.
 */
const overHttps = (request: FastifyRequest) =>
  request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';

const attributes = (request: FastifyRequest, maxAgeS: number) =>
  `Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${overHttps(request) ? '; Secure' : ''}`;

/** The Set-Cookie value that keeps `token` for the pages of this browser, as long as the token lives. */
export const pageSessionCookie = (request: FastifyRequest, token: string): string =>
  `${NAME}=${token}; ${attributes(request, Math.floor(TOKEN_TTL_MS.access / 1000))}`;

/** The Set-Cookie value that forgets it (a logout). */
export const endedPageSessionCookie = (request: FastifyRequest): string =>
  `${NAME}=; ${attributes(request, 0)}`;

/** The token a page request carries, if it carries one of ours. */
export function pageSessionToken(request: FastifyRequest): string | null {
  const value = cookieValue(request, NAME);
  return value && TOKEN.test(value) ? value : null;
}
