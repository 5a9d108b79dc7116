import { describe, expect, it } from 'vitest';
import { loggedUrl } from './request-log';

describe('loggedUrl', () => {
  it('keeps the path and other parameters, never a mailed token or a booking link', () => {
    expect(loggedUrl('/api/site/verify-school?token=abc.DEF_1')).toBe(
      '/api/site/verify-school?token=[redacted]',
    );
    expect(loggedUrl('/book/ptevent/ABC?utm=x&link=p.q&x=1')).toBe(
      '/book/ptevent/ABC?utm=x&link=[redacted]&x=1',
    );
    expect(loggedUrl('/api/events/index?forced=1')).toBe('/api/events/index?forced=1');
  });
});
