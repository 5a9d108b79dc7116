import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import { nonPublicRange } from '../lib/ip-address';

// Where the server may send a push (issue 35): a subscription's endpoint is a URL the browser hands us, so
// it is user data, and the server's request to it must not reach anything but a browser's push service.
// Three walls: the endpoint names a push service's host over https (at subscribe and again before each
// send), the host's addresses are public (checked on the very addresses the connection then uses, so a
// DNS answer that changes between check and connect cannot slip past), and no redirect is followed
// (push-transport.ts).

/**
 * The push services browsers use: Chrome, Edge on Android and other Chromium browsers (FCM), Firefox
 * (Mozilla autopush, updates.push.services.mozilla.com), Edge on Windows (WNS, wns2-….notify.windows.com)
 * and Safari (Apple, web.push.apple.com; Apple asks to allow *.push.apple.com).
 */
export const DEFAULT_PUSH_SERVICE_HOSTS =
  'fcm.googleapis.com,*.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com,*.push.apple.com';

/** A host name as DNS writes it: labels of letters, digits and inner hyphens, at least two of them. */
const HOST = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

/** One entry of PUSH_SERVICE_HOSTS: `host.example` (that host only) or `*.example` (its subdomains). */
export type HostPattern = { suffix: boolean; host: string };

/** PUSH_SERVICE_HOSTS's entries, or undefined when one is not a host name or `*.` and one. */
export function parseHostPatterns(value: string): HostPattern[] | undefined {
  const entries = value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return undefined;
  const patterns: HostPattern[] = [];
  for (const entry of entries) {
    const suffix = entry.startsWith('*.');
    const host = suffix ? entry.slice(2) : entry;
    // An IP address is no push service's name (and would skip the address check's DNS step).
    if (!HOST.test(host) || isIP(host) !== 0 || /^[0-9.]+$/.test(host)) return undefined;
    patterns.push({ suffix, host });
  }
  return patterns;
}

/** Whether `hostname` (lower case, as URL gives it) is one the patterns allow. */
export function hostAllowed(hostname: string, patterns: HostPattern[]): boolean {
  return patterns.some((pattern) =>
    pattern.suffix ? hostname.endsWith(`.${pattern.host}`) : hostname === pattern.host,
  );
}

export type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * What the push worker may reach. The server builds its one from PUSH_SERVICE_HOSTS (pushGuard); a test
 * that delivers to its own listener on 127.0.0.1 passes another to buildApp and the worker in code
 * (test/push/push-endpoint.ts): no setting leads there.
 */
export type PushGuard = {
  /** Why this endpoint is refused (at subscribe, and again before each send), or undefined. */
  endpointProblem(endpoint: string): string | undefined;
  /** Why an address the endpoint's host resolved to is refused, or undefined. */
  addressProblem(address: string): string | undefined;
  /** The DNS lookup (dns.lookup); a test may answer for it. */
  resolve?: Resolve;
};

const NOT_A_PUSH_SERVICE = 'Must be the endpoint of a browser’s push service';

/** The server's guard: https endpoints on the allowed hosts, public addresses only. */
export function pushGuard(hosts: HostPattern[]): PushGuard {
  return {
    endpointProblem: (endpoint) => endpointProblem(endpoint, hosts),
    addressProblem: (address) => {
      const range = nonPublicRange(address);
      return range && `${address} is not public (${range})`;
    },
  };
}

function endpointProblem(endpoint: string, hosts: HostPattern[]): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'Must be a URL';
  }
  if (url.protocol !== 'https:') return 'Must be an https:// push endpoint';
  // Push services take no credentials in the URL and listen on https's own port.
  if (url.username || url.password || url.port)
    return `${NOT_A_PUSH_SERVICE}: no user name, password or port`;
  if (!hostAllowed(url.hostname, hosts))
    return `${NOT_A_PUSH_SERVICE}; this server does not send to ${url.hostname}`;
  return undefined;
}
