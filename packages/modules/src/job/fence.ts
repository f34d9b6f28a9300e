/**
 * The outbound address fence of HTTP jobs: a target whose host is, or resolves to, a private, loopback,
 * link-local, unique-local, CGNAT, multicast, unspecified, documentation, benchmarking or otherwise reserved
 * address, an IPv6 address that carries such an IPv4 address (mapped, SIIT, IPv4-compatible, 6to4) or stands for
 * one (NAT64, Teredo), or an address of one of this machine's own interfaces, is refused (47009) unless
 * `Service:Jobs:AllowPrivateHttpTargets`; so is a host that does not resolve. Every resolved address is checked, the connection goes to the address
 * that was checked (no second lookup an attacker's DNS could answer differently), and redirects are followed by
 * hand so that each hop passes the fence again. A redirect that leaves the job's origin (scheme, host, port)
 * drops every header the job set (its credentials are for that origin only), as a redirect that turns the
 * request into a GET drops its body and the headers describing it, as fetch does.
 */

import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { BusinessError } from '@svc/kernel';
import { ipv6Hextets } from '@svc/security';
import { JobErrorCode } from './codes.js';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // IPv4-compatible addresses (deprecated), the unspecified and loopback addresses among them.
  ['::', 96],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address an IPv6 address carries: mapped (`::ffff:a.b.c.d`), SIIT (`::ffff:0:a.b.c.d`), 6to4. */
function embeddedIpv4(words: number[]): string | undefined {
  const [w0, w1, w2, w3, w4, w5, w6 = 0, w7 = 0] = words;
  const zeros = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0;
  if (zeros && w4 === 0 && w5 === 0xffff) return dotted(w6, w7);
  if (zeros && w4 === 0xffff && w5 === 0) return dotted(w6, w7);
  if (w0 === 0x2002) return dotted(w1 ?? 0, w2 ?? 0);
  return undefined;
}

/** One spelling per address, to compare an address with this machine's own. */
function canonical(address: string): string {
  const words = ipv6Hextets(address);
  if (!words) return address;
  const v4 = embeddedIpv4(words);
  return v4 !== undefined && words[0] !== 0x2002 ? v4 : words.map((w) => w.toString(16)).join(':');
}

/** The addresses of this machine's interfaces (read at each check: interfaces come and go). */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const entry of list ?? []) out.add(canonical(entry.address));
  return out;
}

/**
 * Whether an IP address is outside the public internet, or one of `own` (this machine's interface addresses by
 * default: a service listening on all interfaces is reached through any of them).
 */
export function isPrivateAddress(address: string, own: ReadonlySet<string> = ownAddresses()): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (own.has(canonical(address))) return true;
  if (family === 4) return blocked.check(address, 'ipv4');
  const words = ipv6Hextets(address) as number[];
  const v4 = embeddedIpv4(words);
  if (v4 !== undefined && blocked.check(v4, 'ipv4')) return true;
  return blocked.check(words.map((w) => w.toString(16)).join(':'), 'ipv6');
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const defaultResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

const refuse = (url: string, reason: string) =>
  new BusinessError(JobErrorCode.JobHttpUrlBlocked, { url, reason });

/** Checks one URL; answers the address to connect to. 47009 when refused. */
export async function checkTarget(
  url: URL,
  options: { allowPrivate: boolean; resolve?: Resolve },
): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(url.href, 'only http and https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const addresses = literal
    ? [{ address: host, family: literal }]
    : await (options.resolve ?? defaultResolve)(host).catch(() => []);
  if (addresses.length === 0) throw refuse(url.href, 'host does not resolve');
  if (!options.allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) throw refuse(url.href, `${host} is a private, loopback or link-local address (${bad.address})`);
  }
  return addresses[0] as { address: string; family: number };
}

export interface FencedRequest {
  url: string;
  method: string;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
  allowPrivate: boolean;
  signal: AbortSignal;
  resolve?: Resolve;
  /** @default 5 */
  maxRedirects?: number;
  /**
   * Where to connect for an address that passed the fence. @default the address itself. A test seam only: it
   * lets a test stand a local server in for a public address, to see a redirect from it checked.
   */
  pin?: (checked: { address: string; family: number }) => { address: string; family: number };
}

export interface FencedResponse {
  status: number;
  body: string;
}

const MAX_BODY = 64 * 1024;

/** Headers that describe a request body: they go with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location']);

/** Sends the request through the fence, following up to `maxRedirects` redirects (each hop checked). */
export async function fencedFetch(req: FencedRequest): Promise<FencedResponse> {
  let url = new URL(req.url);
  const origin = url.origin;
  let method = req.method.toUpperCase();
  let body = req.body;
  let headers = req.headers ?? {};
  for (let hop = 0; ; hop++) {
    const target = await checkTarget(url, {
      allowPrivate: req.allowPrivate,
      ...(req.resolve ? { resolve: req.resolve } : {}),
    });
    const res = await send(url, req.pin ? req.pin(target) : target, method, headers, body, req.signal);
    const location = res.location;
    if (res.status >= 300 && res.status < 400 && location) {
      if (hop >= (req.maxRedirects ?? 5)) throw new Error(`too many redirects (last ${url.href})`);
      url = new URL(location, url);
      // Fetch's rule: 303 makes any method but HEAD a GET, 301 and 302 make a POST one; 307 and 308 keep both.
      if (
        (res.status === 303 && method !== 'GET' && method !== 'HEAD') ||
        ((res.status === 301 || res.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => !BODY_HEADERS.has(name.toLowerCase())),
        );
      }
      // The job's headers (Authorization, API keys, cookies, anything it set) are for its own origin: once a
      // redirect leaves it they are gone for good, also if a later hop comes back.
      if (url.origin !== origin) headers = {};
      continue;
    }
    return { status: res.status, body: res.body };
  }
}

function send(
  url: URL,
  target: { address: string; family: number },
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
): Promise<{ status: number; body: string; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}) },
        signal,
        // Connect to the checked address only: no second DNS answer can slip a private address in.
        lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
          opts?.all
            ? cb(null, [{ address: target.address, family: target.family }])
            : cb(null, target.address, target.family)) as never,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY),
            location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
