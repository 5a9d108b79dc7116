import type { FastifyRequest } from 'fastify';

/** The value of the request's cookie `name`, if it carries one (no cookie plugin: two cookies are ours). */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === name && value) return value;
  }
  return undefined;
}
