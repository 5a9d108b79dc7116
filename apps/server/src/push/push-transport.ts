import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { PushGuard, Resolve } from './push-guard';

// The one request the push worker makes: a POST to the endpoint, through node:https with a lookup that
// refuses the host when any address it resolves to is not public and otherwise hands the connection the
// very addresses it checked (pinned: no second resolution for DNS to answer differently). node:https
// follows no redirect; a 3xx is the push service's answer like any other (the worker fails it).

export class PushAddressError extends Error {}

export type PushRequest = {
  endpoint: string;
  method: string;
  headers: Record<string, string | number>;
  body: Buffer | null;
};

/** Connections are pooled per guard, so none made under one guard is ever reused under another. */
const agents = new WeakMap<PushGuard, { http: http.Agent; https: https.Agent }>();

function agentsOf(guard: PushGuard) {
  let pair = agents.get(guard);
  if (!pair) {
    const lookup = checkedLookup(guard);
    pair = {
      http: new http.Agent({ keepAlive: true, lookup } as http.AgentOptions),
      https: new https.Agent({ keepAlive: true, lookup } as https.AgentOptions),
    };
    agents.set(guard, pair);
  }
  return pair;
}

/**
 * A lookup for net.connect: resolves every address of the host, refuses them all if one is refused by the
 * guard, and answers with those addresses (one or all, as the socket asks), which the socket then dials.
 */
export function checkedLookup(guard: PushGuard): LookupFunction {
  const resolve: Resolve =
    guard.resolve ?? ((hostname, options, callback) => dnsLookup(hostname, options, callback));
  return ((hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '', 0);
      const refused = refusal(guard, hostname, addresses);
      if (refused) return callback(refused, options.all ? [] : '', 0);
      const [first] = addresses as [LookupAddress];
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  }) as LookupFunction;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

function refusal(
  guard: PushGuard,
  hostname: string,
  addresses: LookupAddress[],
): PushAddressError | undefined {
  if (addresses.length === 0) return new PushAddressError(`${hostname} resolves to no address`);
  for (const { address } of addresses) {
    const problem = guard.addressProblem(address);
    if (problem) return new PushAddressError(`refused to connect to ${hostname}: ${problem}`);
  }
  return undefined;
}

/** POSTs the push; resolves with the push service's status (a redirect's too: it is never followed). */
export function postToPushService(guard: PushGuard, push: PushRequest, signal: AbortSignal): Promise<number> {
  const problem = guard.endpointProblem(push.endpoint);
  if (problem) return Promise.reject(new PushAddressError(`refused endpoint: ${problem}`));
  const url = new URL(push.endpoint);
  // A literal address is dialled without a lookup: checked here instead.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0) {
    const refused = guard.addressProblem(literal);
    if (refused) return Promise.reject(new PushAddressError(`refused to connect to ${literal}: ${refused}`));
  }
  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  const agent = secure ? agentsOf(guard).https : agentsOf(guard).http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      // The agent's lookup is the checked one (an agent's options win over a request's).
      { method: push.method, headers: push.headers, agent, signal },
      (response) => {
        response.on('error', reject);
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.resume();
      },
    );
    request.on('error', reject);
    request.end(push.body ?? undefined);
  });
}
