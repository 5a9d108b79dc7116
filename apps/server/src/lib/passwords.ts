import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum: m=19 MiB, t=2, p=1 (Algorithm.Argon2id is the library default).
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Without a stored hash, still spend the same time: no timing hint that the account lacks a password.
  if (!passwordHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

const dummyHash = hash('parley-dummy-password', options);
