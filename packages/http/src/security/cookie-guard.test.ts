import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  allowedOriginSet,
  isCrossSite,
  parseSessionCookies,
  requestIsCrossSite,
  sessionCookiesOf,
} from './cookie-guard.js';

describe('session cookies from the raw Cookie header', () => {
  it('reads each session cookie once, decoding values and ignoring other cookies', () => {
    expect(parseSessionCookies('theme=dark; app_rt=abc; app_csrf=n.m%3D; other=1')).toEqual({
      csrf: 'n.m=',
      refresh: 'abc',
      duplicated: false,
    });
    expect(parseSessionCookies(undefined)).toEqual({
      csrf: undefined,
      refresh: undefined,
      duplicated: false,
    });
    expect(parseSessionCookies('app_csrf="quoted"').csrf).toBe('quoted');
  });

  it('refuses to choose between two cookies of one name, whichever comes first', () => {
    for (const header of [
      'app_csrf=good; app_csrf=tossed',
      'app_csrf=tossed;app_csrf=good',
      'app_rt=a; app_csrf=x; app_rt=b',
      'app_csrf=good, app_csrf=tossed',
    ]) {
      expect(parseSessionCookies(header)).toEqual({ csrf: undefined, refresh: undefined, duplicated: true });
    }
    // Look-alike names are other cookies.
    expect(parseSessionCookies('app_csrf=a; xapp_csrf=b; app_csrf2=c').duplicated).toBe(false);
  });
});

describe('cross-site requests', () => {
  const none = allowedOriginSet([]);
  const base = { host: 'admin.example.com', allowedOrigins: none, secFetchSite: undefined };

  it('accepts the own origin (any scheme), no Origin at all, and same-origin or same-site fetch metadata', () => {
    expect(isCrossSite({ ...base, origin: 'https://admin.example.com' })).toBe(false);
    expect(isCrossSite({ ...base, origin: 'http://ADMIN.example.com' })).toBe(false);
    expect(isCrossSite({ ...base, origin: undefined })).toBe(false);
    expect(isCrossSite({ ...base, origin: undefined, secFetchSite: 'same-origin' })).toBe(false);
    expect(isCrossSite({ ...base, origin: undefined, secFetchSite: 'same-site' })).toBe(false);
    expect(isCrossSite({ ...base, host: 'localhost:5100', origin: 'http://localhost:5100' })).toBe(false);
  });

  it('refuses another origin, another port, null and junk origins, and Sec-Fetch-Site: cross-site', () => {
    expect(isCrossSite({ ...base, origin: 'https://evil.example' })).toBe(true);
    expect(isCrossSite({ ...base, origin: 'https://admin.example.com.evil.example' })).toBe(true);
    expect(isCrossSite({ ...base, origin: 'https://sub.admin.example.com' })).toBe(true);
    expect(isCrossSite({ ...base, origin: 'https://admin.example.com:8443' })).toBe(true);
    expect(isCrossSite({ ...base, origin: 'null' })).toBe(true);
    expect(isCrossSite({ ...base, origin: '%%%' })).toBe(true);
    expect(isCrossSite({ ...base, origin: 'file://admin.example.com' })).toBe(true);
    expect(isCrossSite({ ...base, origin: undefined, secFetchSite: 'cross-site' })).toBe(true);
    expect(isCrossSite({ ...base, origin: 'https://admin.example.com', secFetchSite: 'Cross-Site' })).toBe(
      true,
    );
    expect(isCrossSite({ ...base, host: undefined, origin: 'https://admin.example.com' })).toBe(true);
  });

  it('accepts a configured origin, even when fetch metadata says cross-site', () => {
    const allowed = allowedOriginSet(['https://Console.example.com/']);
    const facts = { ...base, allowedOrigins: allowed };
    expect(isCrossSite({ ...facts, origin: 'https://console.example.com', secFetchSite: 'cross-site' })).toBe(
      false,
    );
    expect(isCrossSite({ ...facts, origin: 'http://console.example.com' })).toBe(true);
  });
});

describe('on node-server, from the raw request headers', () => {
  /** A context as node-server builds it: the raw Node request's parsed headers; the Web request unread. */
  const nodeContext = (headers: Record<string, string>) =>
    ({
      env: { incoming: { headers } },
      req: {
        url: 'http://internal:5100/api/v1/x',
        header: () => {
          throw new Error('the Web Headers object must not be read');
        },
      },
    }) as unknown as Context;

  it('judges the Origin against the Host the client sent, and reads the cookies without Headers', () => {
    const none = allowedOriginSet([]);
    const own = nodeContext({ host: 'admin.example.com', origin: 'https://admin.example.com' });
    expect(requestIsCrossSite(own, none)).toBe(false);
    const foreign = nodeContext({ host: 'admin.example.com', origin: 'https://evil.example' });
    expect(requestIsCrossSite(foreign, none)).toBe(true);
    const tossed = nodeContext({ host: 'admin.example.com', cookie: 'app_csrf=a; app_csrf=b' });
    expect(sessionCookiesOf(tossed).duplicated).toBe(true);
  });
});
