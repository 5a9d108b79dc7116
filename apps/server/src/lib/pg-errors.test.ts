import { describe, expect, it } from 'vitest';
import { isUnavailable } from './pg-errors';

/** An error as the pg driver or Node's net module raise it. */
function driverError(code: string, message = `driver failure ${code}`) {
  return Object.assign(new Error(message), { code });
}

describe('isUnavailable', () => {
  it('is false for client mistakes and programming errors', () => {
    for (const error of [
      driverError('23505'),
      driverError('22P02'),
      driverError('42P01'),
      new Error('boom'),
      null,
      undefined,
      'ECONNREFUSED',
      { code: 57 },
    ]) {
      expect(isUnavailable(error)).toBe(false);
    }
  });

  it('is true for any connection-class SQLSTATE (08xxx)', () => {
    for (const code of ['08000', '08003', '08004', '08P01'])
      expect(isUnavailable(driverError(code))).toBe(true);
  });
});
