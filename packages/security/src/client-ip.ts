/**
 * The client address a request is attributed to (rate-limit buckets, login log). `X-Forwarded-For` is
 * honoured only when forwarded-header processing is on and the socket peer is a trusted proxy; then the list
 * is walked from the right, past trusted proxies, to the first address no trusted party vouches for. Anything
 * to its left was written by the client and is ignored, so a client cannot pick its own bucket.
 */
import { BlockList, isIP } from 'node:net';

/** Options of {@link createClientIpResolver} (`Service:Security:ForwardedHeaders`). */
export interface ClientIpOptions {
  /** Honour `X-Forwarded-For` from the listed proxies. @default false */
  enabled: boolean;
  /** Trusted proxies: addresses, or networks in CIDR form (`10.0.0.0/8`, `fd00::/8`). @default [] */
  knownProxies: readonly string[];
}

/** What the resolver reads from one request. */
export interface ClientIpInput {
  /** The socket peer (`req.socket.remoteAddress`); undefined once the socket is gone. */
  remoteAddress: string | undefined;
  /** The `X-Forwarded-For` header value(s), as received. */
  forwardedFor?: string | readonly string[] | undefined;
}

/** Resolves the client address of requests. */
export type ClientIpResolver = (input: ClientIpInput) => string;

/** Answered when the socket peer is unknown. */
export const UNKNOWN_CLIENT_IP = 'unknown';

/** Hextets of an IPv6 address (with an optional dotted IPv4 tail), or undefined when it is not one. */
export function ipv6Hextets(ip: string): number[] | undefined {
  if (isIP(ip) !== 6) return undefined;
  let text = ip;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    // Rewrite a dotted IPv4 tail as its two hextets, e.g. `::ffff:1.2.3.4` -> `::ffff:102:304`.
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => Number.parseInt(h, 16)));
  const left = parse(head);
  const right = parse(rest ?? '');
  const zeros = 8 - left.length - right.length;
  return rest === undefined ? [...left, ...right] : [...left, ...new Array<number>(zeros).fill(0), ...right];
}

/** RFC 5952 text of eight hextets: lower case, the first longest run (>= 2) of zero hextets as `::`. */
function formatIpv6(h: readonly number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (h[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && h[j] === 0) j++;
    if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = h.map((x) => x.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/**
 * One canonical text per address: IPv4 as is, IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as the IPv4 address, other
 * IPv6 in RFC 5952 form without zone. Accepts the `[v6]:port` and `v4:port` forms some proxies write.
 * Undefined when `raw` is not an IP address.
 */
export function normalizeIp(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1] ?? '';
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.indexOf(':'));
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return undefined;
  const h = ipv6Hextets(text);
  if (h === undefined || h.length !== 8) return undefined;
  if (h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff) {
    const [hi = 0, lo = 0] = h.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return formatIpv6(h);
}

/**
 * The partition an address is counted in: an IPv4 address itself, an IPv6 address's /64 (the block one
 * subscriber normally holds). Text that is not an address is returned unchanged.
 */
export function ipPartition(ip: string): string {
  const normal = normalizeIp(ip);
  if (normal === undefined || isIP(normal) === 4) return normal ?? ip;
  const h = ipv6Hextets(normal) ?? [];
  return `${formatIpv6([...h.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/** Parses the trusted-proxy list once; an invalid entry names its configuration key. */
function trustList(knownProxies: readonly string[]): BlockList {
  const list = new BlockList();
  knownProxies.forEach((entry, i) => {
    const [addr = '', bits, extra] = entry.trim().split('/');
    const ip = normalizeIp(addr);
    const family = ip === undefined ? 0 : isIP(ip);
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = family === 4 ? 32 : 128;
    if (
      ip === undefined ||
      extra !== undefined ||
      (prefix !== undefined && (!/^\d+$/.test(bits ?? '') || prefix > maxBits))
    ) {
      throw new Error(
        `Service:Security:ForwardedHeaders:KnownProxies:${i} is "${entry}"; expected an IP address or a CIDR network.`,
      );
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, prefix, type);
  });
  return list;
}

/**
 * Creates a resolver; the proxy list is validated here, once.
 * @example
 * const { Enabled, KnownProxies } = options.Security.ForwardedHeaders;
 * const clientIp = createClientIpResolver({ enabled: Enabled, knownProxies: KnownProxies });
 * const ip = clientIp({ remoteAddress: req.socket.remoteAddress, forwardedFor: req.headers['x-forwarded-for'] });
 */
/** Distinct socket addresses whose normal form a resolver keeps. */
const PEER_CACHE_SIZE = 1024;

export function createClientIpResolver(options: ClientIpOptions): ClientIpResolver {
  const trusted = trustList(options.knownProxies);
  const enabled = options.enabled && options.knownProxies.length > 0;
  const isTrusted = (ip: string) => trusted.check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');

  // The socket's address, normalised once per distinct text: every logged write and every login asks for it,
  // and a connection asks again for each of its requests (bounded: cleared at PEER_CACHE_SIZE entries).
  const peers = new Map<string, string | undefined>();
  const peerOf = (remoteAddress: string | undefined): string | undefined => {
    if (remoteAddress === undefined) return undefined;
    const known = peers.get(remoteAddress);
    if (known !== undefined || peers.has(remoteAddress)) return known;
    const peer = normalizeIp(remoteAddress);
    if (peers.size >= PEER_CACHE_SIZE) peers.clear();
    peers.set(remoteAddress, peer);
    return peer;
  };

  return function resolveClientIpOf({ remoteAddress, forwardedFor }) {
    const peer = peerOf(remoteAddress);
    if (peer === undefined) return UNKNOWN_CLIENT_IP;
    if (!enabled || forwardedFor === undefined || !isTrusted(peer)) return peer;
    const header = typeof forwardedFor === 'string' ? forwardedFor : forwardedFor.join(',');
    const hops = header.split(',');
    let current = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]?.trim() ?? '';
      if (hop === '') continue;
      const ip = normalizeIp(hop);
      // A trusted proxy wrote something that is not an address: stop at the last address we can vouch for.
      if (ip === undefined) return current;
      current = ip;
      if (!isTrusted(ip)) return ip;
    }
    return current;
  };
}

/** One-shot form of {@link createClientIpResolver} (parses the proxy list on every call). */
export function resolveClientIp(input: ClientIpOptions & ClientIpInput): string {
  return createClientIpResolver(input)(input);
}
