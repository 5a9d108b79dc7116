import { generateSecret, generateURI, verify } from 'otplib';

// TOTP as authenticator apps expect it (RFC 6238: SHA-1, 6 digits, 30 s), through otplib.

/** A new secret, base32 (20 random bytes: RFC 4226's recommended 160 bits). */
export const newTotpSecret = (): string => generateSecret();

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const totpUri = (input: { issuer: string; account: string; secret: string }): string =>
  generateURI({ issuer: input.issuer, label: input.account, secret: input.secret });

/**
 * The time step a 6-digit code belongs to, or null. One step either side is accepted (a phone's clock a
 * little off, a code typed as it changed); a step at or before `afterStep` is not (replay).
 */
export async function totpStep(
  secret: string,
  code: string,
  afterStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: 30,
    ...(afterStep !== null && { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
