import { describe, expect, it } from 'vitest';
import { isBreachedPassword } from './breached-passwords';

describe('breached passwords', () => {
  it('knows the commonest ones, whatever their case', () => {
    for (const password of ['password', 'Password1', 'PASSWORD123', 'iloveyou', '12345678', 'qwertyuiop'])
      expect(isBreachedPassword(password), password).toBe(true);
  });

  it('lets an uncommon one through', () => {
    for (const password of ['correct horse battery', 'Tuesday at the harbour 1897', 'k3v!n-a1rport-zz'])
      expect(isBreachedPassword(password), password).toBe(false);
  });
});
