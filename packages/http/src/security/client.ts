/**
 * Request facts the security middleware shares: the client address (resolved once, from the raw socket and
 * `X-Forwarded-For` only when a trusted proxy sent it) and the user agent.
 */
import type { HttpBindings } from '@hono/node-server';
import type { ClientInfo, ClientIpResolver } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../context.js';
import { readHeader } from '../context.js';

/**
 * The client address of this request, cached on the context unless `keep` is false (the operation log, which
 * asks last, after the answer: caching it there would only grow the context's variable map).
 */
export function clientIpOf(c: Context<AppEnv>, resolve: ClientIpResolver, keep = true): string {
  const known = c.get('clientIp');
  if (known !== undefined) return known;
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const ip = resolve({
    remoteAddress: incoming?.socket?.remoteAddress,
    forwardedFor: incoming ? incoming.headers['x-forwarded-for'] : c.req.header('x-forwarded-for'),
  });
  if (keep) c.set('clientIp', ip);
  return ip;
}

/** IP, user agent and trace id for the login log and the session row. */
export function clientInfoOf(c: Context<AppEnv>, resolve: ClientIpResolver): ClientInfo {
  return {
    ip: clientIpOf(c, resolve),
    userAgent: (readHeader(c, 'user-agent') ?? '').slice(0, 500),
    traceId: c.get('traceId'),
  };
}
