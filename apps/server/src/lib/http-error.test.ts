import { describe, expect, it } from 'vitest';
import { conflict, HttpError, serviceUnavailable } from './http-error';

describe('HttpError', () => {
  it('captures no stack for a 4xx (an answer, never reported), and keeps the stack of a 5xx', () => {
    const limit = Error.stackTraceLimit;
    expect(conflict('Taken.').stack).toBe('Error: Taken.');
    expect(new HttpError(422, 'Bad.').stack).toBe('Error: Bad.');
    expect(serviceUnavailable('Busy.').stack).toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('other').stack).toMatch(/\n\s+at /);
  });
});
