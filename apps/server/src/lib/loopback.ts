import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and their IPv4-mapped form: a client on this machine (after trusted proxies). */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}
