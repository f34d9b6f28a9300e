/**
 * Cookie session mode, the checks before the CSRF token (issue 9, spec "Cookie session mode"):
 * - a state-changing request must not come from another site: an `Origin` that is neither the request's own
 *   (its `Host`) nor one of `Service:Security:Session:AllowedOrigins` is refused, and so is
 *   `Sec-Fetch-Site: cross-site` (Fetch Metadata) unless the `Origin` is an allowed one;
 * - the session cookies must each come once: a browser sends two cookies of one name when a sibling subdomain
 *   set a second one (cookie tossing), and taking the first, as a plain cookie parser does, lets the tossed one
 *   win. Such a request is refused, never resolved.
 * Headers are read from the raw Node request where there is one (perf-notes.md: no `Headers` object).
 */
import { CSRF_COOKIE_NAME, REFRESH_COOKIE_NAME } from '@svc/security';
import type { Context } from 'hono';
import { readHeader } from '../context.js';

/** The session cookies of a request, read from the raw `Cookie` header. */
export interface SessionCookies {
  /** `app_csrf`, when sent exactly once. */
  csrf: string | undefined;
  /** `app_rt`, when sent exactly once. */
  refresh: string | undefined;
  /** True when either cookie name appears more than once (then neither value is given). */
  duplicated: boolean;
}

function decode(value: string): string {
  const unquoted =
    value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}

/**
 * Parses a `Cookie` header (RFC 6265 §5.4: `name=value` pairs separated by `;`) for the two session cookies,
 * counting each name. Several `Cookie` headers joined with `, ` (HTTP/2 may split them) read the same way.
 */
export function parseSessionCookies(header: string | undefined): SessionCookies {
  let csrf: string | undefined;
  let refresh: string | undefined;
  let csrfCount = 0;
  let refreshCount = 0;
  if (header) {
    for (const pair of header.split(/;|, (?=[^=;,\s]+=)/)) {
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      if (name === CSRF_COOKIE_NAME) {
        csrfCount++;
        csrf = decode(pair.slice(eq + 1).trim());
      } else if (name === REFRESH_COOKIE_NAME) {
        refreshCount++;
        refresh = decode(pair.slice(eq + 1).trim());
      }
    }
  }
  const duplicated = csrfCount > 1 || refreshCount > 1;
  return {
    csrf: duplicated ? undefined : csrf,
    refresh: duplicated ? undefined : refresh,
    duplicated,
  };
}

/** What {@link isCrossSite} looks at. */
export interface OriginFacts {
  /** The `Origin` header, if any. */
  origin: string | undefined;
  /** `Sec-Fetch-Site`, if any. */
  secFetchSite: string | undefined;
  /** The request's own authority (`Host`, e.g. `admin.example.com:8443`). */
  host: string | undefined;
  /** Exact origins (`https://console.example.com`) allowed besides the request's own. */
  allowedOrigins: ReadonlySet<string>;
}

/**
 * True when the request was made by another site. An allowed `Origin` wins; then `Sec-Fetch-Site:
 * cross-site` refuses; then an `Origin` whose authority is not the request's `Host` refuses (the scheme is not
 * compared: behind a TLS-terminating proxy the service sees http while the browser says https). `Origin: null`
 * (sandboxed frames, cross-site redirects) and an unparsable `Origin` refuse. No `Origin` and no
 * `Sec-Fetch-Site` (older clients, non-browser callers) pass: the CSRF token still has to match.
 */
export function isCrossSite(facts: OriginFacts): boolean {
  const { origin, host, allowedOrigins } = facts;
  if (origin !== undefined && allowedOrigins.has(origin.toLowerCase())) return false;
  if (facts.secFetchSite?.toLowerCase() === 'cross-site') return true;
  if (origin === undefined) return false;
  let authority: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return true;
    authority = url.host;
  } catch {
    return true;
  }
  return host === undefined || authority !== new URL(`http://${host}`).host;
}

/** Normalises configured origins for {@link isCrossSite} (lower case, no trailing slash or path). */
export function allowedOriginSet(origins: readonly string[]): ReadonlySet<string> {
  return new Set(origins.map((o) => new URL(o).origin.toLowerCase()));
}

/** The request's own authority: its `Host` header, else the URL's (`app.request()` in tests). */
function hostOf(c: Context): string | undefined {
  const host = readHeader(c, 'host');
  if (host) return host;
  try {
    return new URL(c.req.url).host;
  } catch {
    return undefined;
  }
}

/** {@link isCrossSite} for a Hono request. */
export function requestIsCrossSite(c: Context, allowedOrigins: ReadonlySet<string>): boolean {
  let host: string | undefined;
  try {
    host = hostOf(c);
    if (host !== undefined) new URL(`http://${host}`);
  } catch {
    host = undefined;
  }
  return isCrossSite({
    origin: readHeader(c, 'origin'),
    secFetchSite: readHeader(c, 'sec-fetch-site'),
    host,
    allowedOrigins,
  });
}

/** The session cookies of a Hono request. */
export function sessionCookiesOf(c: Context): SessionCookies {
  return parseSessionCookies(readHeader(c, 'cookie'));
}
