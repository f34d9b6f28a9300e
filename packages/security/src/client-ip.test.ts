import { describe, expect, it } from 'vitest';
import { createClientIpResolver, ipPartition, normalizeIp, resolveClientIp } from './client-ip.js';

const PROXY = '10.0.0.5';
const on = { enabled: true, knownProxies: [PROXY] };

describe('resolveClientIp', () => {
  it('uses the socket peer when forwarded headers are off, whatever the header says', () => {
    const ip = resolveClientIp({
      enabled: false,
      knownProxies: [PROXY],
      remoteAddress: PROXY,
      forwardedFor: '1.1.1.1',
    });
    expect(ip).toBe(PROXY);
  });

  it('ignores the header from a peer that is not a known proxy (a client picking its own bucket)', () => {
    expect(resolveClientIp({ ...on, remoteAddress: '203.0.113.9', forwardedFor: '1.1.1.1' })).toBe(
      '203.0.113.9',
    );
  });

  it('ignores the header when enabled without any trusted proxy', () => {
    const ip = resolveClientIp({
      enabled: true,
      knownProxies: [],
      remoteAddress: PROXY,
      forwardedFor: '1.1.1.1',
    });
    expect(ip).toBe(PROXY);
  });

  it('takes the address the trusted proxy appended, not what the client prepended', () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the real peer 198.51.100.7.
    const ip = resolveClientIp({ ...on, remoteAddress: PROXY, forwardedFor: '6.6.6.6, 198.51.100.7' });
    expect(ip).toBe('198.51.100.7');
  });

  it('walks past a chain of trusted proxies, networks included', () => {
    const resolve = createClientIpResolver({
      enabled: true,
      knownProxies: [PROXY, '172.16.0.0/12', 'fd00::/8'],
    });
    const forwardedFor = '6.6.6.6, 198.51.100.7, fd00::1, 172.20.1.1';
    expect(resolve({ remoteAddress: PROXY, forwardedFor })).toBe('198.51.100.7');
    // Several header lines arrive as an array.
    expect(resolve({ remoteAddress: PROXY, forwardedFor: ['6.6.6.6', '198.51.100.7, 172.20.1.1'] })).toBe(
      '198.51.100.7',
    );
  });

  it('answers the leftmost address when every hop is a trusted proxy', () => {
    expect(resolveClientIp({ ...on, remoteAddress: PROXY, forwardedFor: `${PROXY}, ${PROXY}` })).toBe(PROXY);
  });

  it('stops at a hop that is not an address instead of trusting what lies left of it', () => {
    const ip = resolveClientIp({ ...on, remoteAddress: PROXY, forwardedFor: '6.6.6.6, garbage' });
    expect(ip).toBe(PROXY);
  });

  it('normalises IPv4-mapped IPv6 peers and hops, and matches proxies in either form', () => {
    expect(
      resolveClientIp({ ...on, remoteAddress: '::ffff:10.0.0.5', forwardedFor: '::ffff:198.51.100.7' }),
    ).toBe('198.51.100.7');
    expect(resolveClientIp({ enabled: false, knownProxies: [], remoteAddress: '::ffff:127.0.0.1' })).toBe(
      '127.0.0.1',
    );
  });

  it('strips ports some proxies add', () => {
    expect(resolveClientIp({ ...on, remoteAddress: PROXY, forwardedFor: '198.51.100.7:5555' })).toBe(
      '198.51.100.7',
    );
    expect(resolveClientIp({ ...on, remoteAddress: PROXY, forwardedFor: '[2001:db8::1]:443' })).toBe(
      '2001:db8::1',
    );
  });

  it('answers "unknown" without a peer', () => {
    expect(resolveClientIp({ ...on, remoteAddress: undefined, forwardedFor: '1.1.1.1' })).toBe('unknown');
  });

  it('answers the same for a peer seen before, also past the bound of its cache and for unknown text', () => {
    const resolve = createClientIpResolver(on);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 1500; i++) {
        const v4 = `198.51.${i >> 8}.${i & 0xff}`;
        expect(resolve({ remoteAddress: `::ffff:${v4}` })).toBe(v4);
      }
      expect(resolve({ remoteAddress: 'not an address' })).toBe('unknown');
      expect(resolve({ remoteAddress: PROXY, forwardedFor: '198.51.100.7' })).toBe('198.51.100.7');
      expect(resolve({ remoteAddress: '203.0.113.9', forwardedFor: '198.51.100.7' })).toBe('203.0.113.9');
    }
  });

  it('refuses an invalid proxy entry at creation, naming its key', () => {
    expect(() =>
      createClientIpResolver({ enabled: true, knownProxies: ['10.0.0.1', 'proxy.local'] }),
    ).toThrow(/Service:Security:ForwardedHeaders:KnownProxies:1/);
    expect(() => createClientIpResolver({ enabled: true, knownProxies: ['10.0.0.0/33'] })).toThrow(
      /KnownProxies:0/,
    );
  });
});

describe('normalizeIp and ipPartition', () => {
  it('gives each address one spelling', () => {
    expect(normalizeIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normalizeIp('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(normalizeIp('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(normalizeIp('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeIp('::1')).toBe('::1');
    expect(normalizeIp('not-an-ip')).toBeUndefined();
  });

  it('counts IPv6 clients by their /64', () => {
    expect(ipPartition('2001:db8:1:2:aaaa::1')).toBe(ipPartition('2001:db8:1:2:bbbb::9'));
    expect(ipPartition('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(ipPartition('2001:db8:1:3::1')).not.toBe(ipPartition('2001:db8:1:2::1'));
    expect(ipPartition('198.51.100.7')).toBe('198.51.100.7');
  });
});
