import { createPrivateKey, type KeyObject, sign } from 'node:crypto';

// The JSON Web Tokens the native push services take (RFC 7515 compact form): Google's OAuth assertion
// (RS256, a service account's RSA key) and Apple's provider token (ES256, a .p8 key), signed with
// node:crypto alone.

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A private key from PEM text (a service account's `private_key`, an APNs .p8 file). */
export function privateKeyOf(pem: string, what: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw new Error(`${what} is not a PEM private key`);
  }
}

export function signedToken(
  algorithm: 'RS256' | 'ES256',
  key: KeyObject,
  header: Record<string, string>,
  claims: Record<string, string | number>,
): string {
  const input = `${base64url(JSON.stringify({ alg: algorithm, typ: 'JWT', ...header }))}.${base64url(JSON.stringify(claims))}`;
  // ES256 is the raw r‖s pair (RFC 7518 §3.4), not node's default DER.
  const signature =
    algorithm === 'ES256'
      ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), key);
  return `${input}.${base64url(signature)}`;
}
