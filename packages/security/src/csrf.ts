/**
 * CSRF protection for cookie session mode (spec "Cookie session mode"): the `app_csrf` cookie holds a random
 * nonce and an HMAC binding it to the session, and every write must echo the cookie in `X-App-CSRF`. The echo
 * (compared in constant time) shows the request was made by script on our origin; the MAC stops a value
 * planted from a sibling subdomain or lifted from another session from passing (OWASP CSRF Cheat Sheet,
 * "signed double-submit cookie").
 */
import { createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual } from '@svc/kernel';
import { CSRF_MAC_LABEL, CSRF_NONCE_BYTES } from './constants.js';

/** Shortest MAC key accepted: the HMAC-SHA256 output size (RFC 2104 §3). */
const MIN_KEY_BYTES = 32;
const NONCE_CHARS = Math.ceil((CSRF_NONCE_BYTES * 4) / 3);

function mac(key: Uint8Array, sessionId: string, nonce: string): string {
  if (key.byteLength < MIN_KEY_BYTES)
    throw new RangeError(`The CSRF key must be at least ${MIN_KEY_BYTES} bytes.`);
  return createHmac('sha256', key).update(`${CSRF_MAC_LABEL}\n${sessionId}\n${nonce}`).digest('base64url');
}

/**
 * A new CSRF value for `sessionId`: `<nonce>.<mac>`, both base64url. Use a key of its own (see
 * `deriveSubkey(jwtKey, 'csrf')`), not the token-signing key.
 */
export function issueCsrf(sessionId: string, key: Uint8Array): string {
  const nonce = randomBytes(CSRF_NONCE_BYTES).toString('base64url');
  return `${nonce}.${mac(key, sessionId, nonce)}`;
}

/** What {@link verifyCsrf} checks. */
export interface CsrfCheck {
  /** The `X-App-CSRF` header. */
  header: string | undefined;
  /** The `app_csrf` cookie. */
  cookie: string | undefined;
  /** The session of the request (the access token's `sid`). */
  sessionId: string;
  key: Uint8Array;
}

/**
 * True when the header equals the cookie (constant time) and the cookie's MAC was made for this session.
 * Missing or malformed values are false, never an exception.
 */
export function verifyCsrf(check: CsrfCheck): boolean {
  const { header, cookie, sessionId, key } = check;
  if (typeof header !== 'string' || typeof cookie !== 'string' || header === '' || sessionId === '')
    return false;
  const echoed = constantTimeEqual(header, cookie);
  const dot = cookie.indexOf('.');
  if (dot !== NONCE_CHARS || cookie.indexOf('.', dot + 1) !== -1) return false;
  const signed = constantTimeEqual(cookie.slice(dot + 1), mac(key, sessionId, cookie.slice(0, dot)));
  return echoed && signed;
}
