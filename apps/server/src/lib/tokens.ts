import { createHash, randomBytes } from 'node:crypto';

/** An opaque 256-bit token for the client; only its SHA-256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const BASE32 = 'abcdefghijkmnpqrstuvwxyz23456789'; // no 0/o, 1/l: easy to read out and type

/** A public code (an event's booking link): `length` characters of base32 from crypto random (5 bits each). */
export function newPublicCode(length = 10): string {
  const bytes = randomBytes(length);
  let code = '';
  for (const byte of bytes) code += BASE32[byte & 31];
  return code;
}
