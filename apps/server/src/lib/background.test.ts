import { describe, expect, it, vi } from 'vitest';
import { Background } from './background';

describe('work after the answer', () => {
  it('reports a failed task as an error, and as a warning when the database was away', async () => {
    const log = { error: vi.fn(), warn: vi.fn() };
    const background = new Background(log);
    background.run('mail', async () => {
      throw new TypeError('x is undefined');
    });
    background.run('audit', async () => {
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    });
    background.run('fine', async () => 1);
    await background.idle();
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(TypeError) }, 'background task failed: mail');
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith({ err: expect.any(Error) }, 'background task failed: audit');
  });
});
