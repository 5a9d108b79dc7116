import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SERVICE_HOSTS, hostAllowed, parseHostPatterns, pushGuard } from './push-guard';

// The push services' host allowlist (issue 35): what PUSH_SERVICE_HOSTS takes, which hosts its entries
// allow, and which endpoints the server's guard refuses before anything is stored or sent.

const defaults = parseHostPatterns(DEFAULT_PUSH_SERVICE_HOSTS) ?? [];
const guard = pushGuard(defaults);

describe('PUSH_SERVICE_HOSTS', () => {
  it('takes host names and *.domain entries, trimmed and in lower case', () => {
    expect(parseHostPatterns(' Push.Example.org ,*.push.example.net,')).toEqual([
      { suffix: false, host: 'push.example.org' },
      { suffix: true, host: 'push.example.net' },
    ]);
  });

  it('refuses addresses, bare names, whole top-level domains, URLs and wildcards elsewhere', () => {
    for (const bad of [
      '',
      ',',
      '127.0.0.1',
      '::1',
      '[::1]',
      'localhost',
      '*.com',
      '*',
      '*.',
      'push.*.example.org',
      'https://push.example.org',
      'push.example.org:443',
      'push.example.org/path',
      '-push.example.org',
      'push_service.example.org',
    ]) {
      expect(parseHostPatterns(bad), bad).toBeUndefined();
    }
    expect(parseHostPatterns('fcm.googleapis.com,localhost')).toBeUndefined();
  });
});

describe('hostAllowed', () => {
  it('allows a host entry itself only, and a *.domain entry its subdomains only', () => {
    const patterns = parseHostPatterns('push.example.org,*.push.example.net') ?? [];
    expect(hostAllowed('push.example.org', patterns)).toBe(true);
    expect(hostAllowed('a.push.example.org', patterns)).toBe(false);
    expect(hostAllowed('evilpush.example.org', patterns)).toBe(false);
    expect(hostAllowed('push.example.org.evil.example', patterns)).toBe(false);
    expect(hostAllowed('a.push.example.net', patterns)).toBe(true);
    expect(hostAllowed('a.b.push.example.net', patterns)).toBe(true);
    expect(hostAllowed('push.example.net', patterns)).toBe(false);
    expect(hostAllowed('evilpush.example.net', patterns)).toBe(false);
    expect(hostAllowed('push.example.net.evil.example', patterns)).toBe(false);
  });

  it('allows the endpoints the four browsers’ push services hand out, by default', () => {
    for (const host of [
      'fcm.googleapis.com',
      'updates.push.services.mozilla.com',
      'wns2-par02p.notify.windows.com',
      'web.push.apple.com',
      'api.push.apple.com',
    ]) {
      expect(hostAllowed(host, defaults), host).toBe(true);
    }
    for (const host of [
      'googleapis.com',
      'android.googleapis.com',
      'mozilla.com',
      'apple.com',
      'example.org',
    ]) {
      expect(hostAllowed(host, defaults), host).toBe(false);
    }
  });
});

describe('the server’s push guard', () => {
  it('accepts the https endpoints of the push services', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAA',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://FCM.googleapis.com:443/fcm/send/x',
    ]) {
      expect(guard.endpointProblem(endpoint), endpoint).toBeUndefined();
    }
  });

  it('refuses plain http, other hosts, addresses, credentials and ports, with a reason', () => {
    const cases: [string, RegExp][] = [
      ['not a url', /^Must be a URL$/],
      ['http://fcm.googleapis.com/fcm/send/x', /^Must be an https:\/\/ push endpoint$/],
      ['ftp://fcm.googleapis.com/x', /https:\/\//],
      ['https://127.0.0.1/push', /does not send to 127\.0\.0\.1$/],
      ['https://2130706433/push', /does not send to 127\.0\.0\.1$/],
      ['https://[::1]/push', /does not send to \[::1\]$/],
      ['https://169.254.169.254/latest/meta-data', /does not send to 169\.254\.169\.254$/],
      ['https://localhost/push', /does not send to localhost$/],
      ['https://evil.example/push', /does not send to evil\.example$/],
      [
        'https://fcm.googleapis.com.evil.example/fcm',
        /does not send to fcm\.googleapis\.com\.evil\.example$/,
      ],
      ['https://fcm.googleapis.com./fcm/send/x', /does not send to/],
      ['https://evilfcm.googleapis.com/fcm', /does not send to/],
      ['https://user:pass@fcm.googleapis.com/fcm/send/x', /no user name, password or port/],
      ['https://fcm.googleapis.com:8443/fcm/send/x', /no user name, password or port/],
    ];
    for (const [endpoint, reason] of cases) expect(guard.endpointProblem(endpoint), endpoint).toMatch(reason);
  });

  it('refuses every non-public address the host resolves to, and names it', () => {
    expect(guard.addressProblem('127.0.0.1')).toBe('127.0.0.1 is not public (loopback)');
    expect(guard.addressProblem('::ffff:10.0.0.1')).toBe(
      '::ffff:10.0.0.1 is not public (IPv4-mapped private)',
    );
    expect(guard.addressProblem('142.250.74.138')).toBeUndefined();
  });
});
