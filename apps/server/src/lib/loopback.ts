import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

/**
 * A client on this machine itself: the socket's peer is loopback and no proxy relayed the request. The
 * forwarded headers are never read for this (TRUST_PROXY or not): a proxy on this host relays the world,
 * and it says so by adding them, which a client can add too but never take away.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  const { headers } = request;
  const relayed = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((name) => headers[name] !== undefined);
  return !relayed && isLoopback(request.socket.remoteAddress ?? '');
}

/**
 * The client's address as Fastify worked it out through the trusted proxies, or the socket's peer when
 * what a proxy passed on is not an address at all (it is stored in sessions and the audit trail).
 */
export function clientIp(request: FastifyRequest): string {
  return isIP(request.ip) ? request.ip : (request.socket.remoteAddress ?? '');
}
