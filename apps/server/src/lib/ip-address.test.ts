import { describe, expect, it } from 'vitest';
import { nonPublicRange } from './ip-address';

// The address classifier behind the push worker's connections (issue 35): each range at its edges, the
// public neighbours just outside it, and IPv4 carried inside IPv6.

describe('nonPublicRange', () => {
  it('names each non-public IPv4 range, first and last address alike', () => {
    const cases: [string, string][] = [
      ['0.0.0.0', 'unspecified'],
      ['0.255.255.255', 'unspecified'],
      ['10.0.0.0', 'private'],
      ['10.255.255.255', 'private'],
      ['100.64.0.0', 'shared (CGNAT)'],
      ['100.127.255.255', 'shared (CGNAT)'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['169.254.0.0', 'link-local'],
      ['169.254.169.254', 'link-local'], // cloud metadata services
      ['169.254.255.255', 'link-local'],
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
      ['192.0.0.0', 'IETF protocol assignment'],
      ['192.0.0.255', 'IETF protocol assignment'],
      ['192.0.2.1', 'documentation'],
      ['192.88.99.1', '6to4 relay'],
      ['192.168.0.0', 'private'],
      ['192.168.255.255', 'private'],
      ['198.18.0.0', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.7', 'documentation'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.255', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
    ];
    for (const [address, range] of cases) expect(nonPublicRange(address), address).toBe(range);
  });

  it('lets the public IPv4 addresses next to those ranges through', () => {
    for (const address of [
      '1.1.1.1',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '142.250.74.138',
    ]) {
      expect(nonPublicRange(address), address).toBeUndefined();
    }
  });

  it('names each non-public IPv6 range, in any spelling', () => {
    const cases: [string, string][] = [
      ['::', 'unspecified'],
      ['0:0:0:0:0:0:0:0', 'unspecified'],
      ['::1', 'loopback'],
      ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
      ['::2', 'IPv4-compatible (deprecated)'],
      ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
      ['fc00::', 'unique-local'],
      ['fd12:3456:789a::1', 'unique-local'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
      ['fe80::1', 'link-local'],
      ['FE80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf:ffff::1', 'link-local'],
      ['fec0::1', 'site-local (deprecated)'],
      ['ff02::1', 'multicast'],
      ['ff0e::1', 'multicast'],
      ['100::1', 'discard-only'],
      ['2001:db8::1', 'documentation'],
      ['3fff::1', 'documentation'],
      ['2001::1', 'Teredo'],
      ['2001:2::1', 'IETF protocol assignment'],
      ['2002:7f00:1::1', '6to4'],
      ['64:ff9b:1::1', 'private (local NAT64)'],
      ['4000::1', 'reserved'],
      ['1::1', 'reserved'],
    ];
    for (const [address, range] of cases) expect(nonPublicRange(address), address).toBe(range);
  });

  it('lets public IPv6 unicast through', () => {
    for (const address of [
      '2a00:1450:4001:82b::200a',
      '2600::',
      '2001:4860:4860::8888',
      '3ffe::1',
      '2003::1',
    ]) {
      expect(nonPublicRange(address), address).toBeUndefined();
    }
  });

  it('judges IPv4-mapped and NAT64 addresses by the IPv4 address inside', () => {
    expect(nonPublicRange('::ffff:127.0.0.1')).toBe('IPv4-mapped loopback');
    expect(nonPublicRange('::ffff:7f00:1')).toBe('IPv4-mapped loopback');
    expect(nonPublicRange('::FFFF:10.1.2.3')).toBe('IPv4-mapped private');
    expect(nonPublicRange('::ffff:169.254.169.254')).toBe('IPv4-mapped link-local');
    expect(nonPublicRange('::ffff:0.0.0.0')).toBe('IPv4-mapped unspecified');
    expect(nonPublicRange('0:0:0:0:0:ffff:c0a8:0101')).toBe('IPv4-mapped private');
    expect(nonPublicRange('64:ff9b::127.0.0.1')).toBe('NAT64 loopback');
    expect(nonPublicRange('64:ff9b::a00:1')).toBe('NAT64 private');
    expect(nonPublicRange('::ffff:8.8.8.8')).toBeUndefined();
    expect(nonPublicRange('64:ff9b::8.8.8.8')).toBeUndefined();
  });

  it('refuses what is no IP address at all', () => {
    for (const text of [
      '',
      'localhost',
      'fcm.googleapis.com',
      '127.1',
      '0x7f.0.0.1',
      '1.2.3.256',
      '::g',
      '1:2:3',
    ]) {
      expect(nonPublicRange(text), text).toBe('not an IP address');
    }
  });
});
