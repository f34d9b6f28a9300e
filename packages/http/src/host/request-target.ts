/**
 * Requests node-server cannot turn into a Web `Request` (`newRequest`): a target that is neither a path nor an
 * absolute `http(s)` URL (`GET *`), a backslash in the path, or a Host whose URL does not parse to that host
 * (`Host: a b`, `Host: x/y?z`); a request without Host gets the listener's host name, as node-server gives it. node-server answers those with a bare `400 text/plain` before the app
 * runs; the listener answers them here instead, with the 48000 envelope and a trace id like every other refusal.
 * The tests mirror node-server's own, so nothing it accepts is refused; the Host verdicts of accepted hosts are
 * kept (a handful per deployment), so the common request pays a map lookup and two character scans.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, type ErrorCodeRegistry, fail } from '@svc/kernel';
import { API_SECURE_HEADERS, PERMISSIONS_POLICY } from '../middleware/secure-headers.js';
import { newTraceId, TRACE_HEADER } from '../middleware/trace-id.js';

const SECURE_HEADERS: Record<string, string> = Object.fromEntries(API_SECURE_HEADERS);

/** Distinct accepted Host headers kept; others are checked per request. */
const HOSTS_KEPT = 32;

/**
 * node-server's own test of a Host header (`newRequest`): the URL built from it must parse, and its host name
 * must be the header's (or as long as it, for a case difference).
 */
export function hostAccepted(host: string): boolean {
  try {
    const hostname = new URL(`http://${host}/`).hostname;
    return hostname.length === host.length || hostname === host.replace(/:\d+$/, '');
  } catch {
    return false;
  }
}

/** A memo of {@link hostAccepted} for accepted hosts (junk Host headers never fill it). */
export function hostVerdicts(): (host: string | undefined) => boolean {
  const hosts = new Map<string, boolean>();
  return (host) => {
    if (host === undefined || host === '') return false;
    const known = hosts.get(host);
    if (known !== undefined) return known;
    const verdict = hostAccepted(host);
    if (verdict && hosts.size < HOSTS_KEPT) hosts.set(host, verdict);
    return verdict;
  };
}

/** Why node-server would refuse this request's target or Host, or undefined when it would take it. */
export function targetProblem(incoming: IncomingMessage, hostOk: (host: string | undefined) => boolean) {
  const url = incoming.url ?? '';
  const absolute = url.charCodeAt(0) !== 47 && (url.startsWith('http://') || url.startsWith('https://'));
  if (url.charCodeAt(0) !== 47 && !absolute) return 'the request target must be a path';
  const backslash = url.indexOf('\\');
  if (backslash !== -1) {
    const query = url.indexOf('?');
    if (query === -1 || backslash < query) return 'the request path must not contain a backslash';
  }
  if (absolute) {
    try {
      new URL(url);
    } catch {
      return 'the request target is not a valid URL';
    }
    return undefined;
  }
  // No Host (HTTP/1.0, a load balancer's health check): node-server uses the listener's host name.
  const host = incoming.headers.host;
  if (host === undefined || host === '') return undefined;
  return hostOk(host) ? undefined : 'the Host header is not a valid host';
}

/**
 * Answers a refused target: 400 with the 48000 envelope naming the problem and the API's secure headers (the
 * target may have meant an `/api/` path; an error answer is cached or framed no more than any other).
 */
export function answerBadTarget(outgoing: ServerResponse, errors: ErrorCodeRegistry, problem: string): void {
  const code = ErrorCode.ParamInvalid.code;
  const body = JSON.stringify(
    fail(code, errors.msgKeyOf(code), { errors: [{ path: '', message: problem }] }),
  );
  outgoing.writeHead(400, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    [TRACE_HEADER]: newTraceId(),
    [PERMISSIONS_POLICY[0]]: PERMISSIONS_POLICY[1],
    ...SECURE_HEADERS,
  });
  outgoing.end(body);
}
