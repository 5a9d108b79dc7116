import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Secrets the server must read back (a two-factor secret), sealed with AES-256-GCM under
// DATA_ENCRYPTION_KEY (decision 015): a copy of the database alone yields none of them. The context
// (e.g. "two-factor:42") is bound as associated data, so a sealed value moved to another row does not open.

const VERSION = 'v1';

export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

/** The plaintext; throws on a wrong key, a wrong context or a value that was changed. */
export function open(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
