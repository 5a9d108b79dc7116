import { isIP } from 'node:net';

// Which addresses are this machine's, its network's or nobody's: the server's own requests built from user
// data (push endpoints) may go to public unicast addresses only. The ranges are IANA's special-purpose
// registries (RFC 6890 and its updates); an IPv4 address inside IPv6 (mapped, NAT64) is judged as IPv4.

type Range = { base: bigint; bits: number; name: string };

const V4_RANGES = ranges(4, [
  ['0.0.0.0/8', 'unspecified'], // "this network": 0.0.0.0 reaches this host on Linux
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignment'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // and 255.255.255.255, broadcast
]);

const V6_RANGES = ranges(6, [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['64:ff9b:1::/48', 'private (local NAT64)'],
  ['100::/64', 'discard-only'],
  ['2001::/32', 'Teredo'],
  ['2001:db8::/32', 'documentation'],
  ['2001::/23', 'IETF protocol assignment'],
  ['2002::/16', '6to4'],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
]);

/** IPv6 prefixes whose last 32 bits are an IPv4 address, judged as that address. */
const V4_INSIDE_V6 = ranges(6, [
  ['::ffff:0:0/96', 'IPv4-mapped'],
  ['64:ff9b::/96', 'NAT64'],
]);

/** Global unicast (RFC 4291): everything else in IPv6 is reserved. */
const [GLOBAL_UNICAST] = ranges(6, [['2000::/3', 'global unicast']]);

/**
 * Why the server must not connect to `address` (the name of its range: 'loopback', 'private', …), or
 * undefined for a public unicast address. A text that is no IP address is refused as such.
 */
export function nonPublicRange(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) return v4Range(v4Value(address));
  if (version !== 6) return 'not an IP address';
  // A zone (fe80::1%eth0) names an interface of this host: link-local by nature, judged without it.
  const value = v6Value(address.replace(/%.*$/, ''));
  if (value === undefined) return 'not an IP address';
  for (const range of V4_INSIDE_V6) {
    if (inRange(value, 128, range)) {
      const inner = v4Range(value & 0xffff_ffffn);
      return inner === undefined ? undefined : `${range.name} ${inner}`;
    }
  }
  const named = V6_RANGES.find((range) => inRange(value, 128, range));
  if (named) return named.name;
  return GLOBAL_UNICAST && inRange(value, 128, GLOBAL_UNICAST) ? undefined : 'reserved';
}

function v4Range(value: bigint): string | undefined {
  return V4_RANGES.find((range) => inRange(value, 32, range))?.name;
}

function inRange(value: bigint, width: number, range: Range): boolean {
  const shift = BigInt(width - range.bits);
  return value >> shift === range.base >> shift;
}

function ranges(version: 4 | 6, table: [string, string][]): Range[] {
  return table.map(([cidr, name]) => {
    const [base = '', bits = ''] = cidr.split('/');
    const value = version === 4 ? v4Value(base) : v6Value(base);
    if (value === undefined) throw new Error(`bad range ${cidr}`);
    return { base: value, bits: Number(bits), name };
  });
}

function v4Value(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of an IPv6 address (with `::` and a dotted IPv4 tail); undefined if malformed. */
function v6Value(address: string): bigint | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = v4Value(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return value;
}
