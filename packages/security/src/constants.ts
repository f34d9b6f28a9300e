/**
 * Security constants of @svc/security, each with the reason or the standard behind its value. Values the
 * spec makes configurable live in the options and runtime keys instead; these are the fixed parts.
 */

/**
 * The only JWS algorithm signed and accepted. Verification pins it, so a token claiming `none`, another HMAC
 * size or an asymmetric algorithm is refused before any key is used (RFC 8725 §3.1, algorithm confusion).
 */
export const ACCESS_TOKEN_ALGORITHM = 'HS256';

/** Clock skew tolerated on `exp` (and on a future `iat`): the spec's "Limits" table, 30 seconds. */
export const CLOCK_SKEW_SECONDS = 30;

/**
 * Longest access token worth verifying. Ours are about 350 characters; anything near a header limit is not
 * one of ours and is refused before it is decoded or hashed.
 */
export const ACCESS_TOKEN_MAX_LENGTH = 4096;

/**
 * Entries kept by the verified-token cache. About 1 KB each (token text plus claims), so 10,000 entries stay
 * near 10 MB while covering every live token of a busy admin back end.
 */
export const VERIFIED_TOKEN_CACHE_MAX = 10_000;

/**
 * Random bytes in a refresh token: 256 bits, the strength of the HS256 key beside it and well above the
 * 64 bits OWASP's Session Management Cheat Sheet asks of session identifiers.
 */
export const REFRESH_TOKEN_BYTES = 32;

/** Random bytes in a CSRF nonce: 128 bits, so two issued values never collide (OWASP CSRF Cheat Sheet). */
export const CSRF_NONCE_BYTES = 16;

/** Label mixed into every CSRF MAC so that no other HMAC made with the same key can pass as a CSRF value. */
export const CSRF_MAC_LABEL = 'svc.csrf.v1';

/** Cookie that carries the refresh token in cookie mode (spec "Cookie session mode"). HttpOnly. */
export const REFRESH_COOKIE_NAME = 'app_rt';

/** Readable cookie that carries the CSRF value in cookie mode (spec "Cookie session mode"). */
export const CSRF_COOKIE_NAME = 'app_csrf';

/** Header a cookie-mode write must echo the CSRF cookie in (spec "Cookie session mode"). */
export const CSRF_HEADER_NAME = 'X-App-CSRF';

/**
 * Header by which a browser client asks for a cookie session on a host whose `CookieMode` is off: with
 * `X-App-Session-Mode: cookie` on a login (or refresh) request, that session's refresh token goes into the
 * HttpOnly `app_rt` cookie instead of the body, so no page script can read it. A custom header, so a cross-site
 * page cannot send it without a CORS preflight, which the service never grants.
 */
export const SESSION_MODE_HEADER_NAME = 'X-App-Session-Mode';

/** API keys: at least 32 bytes (spec "API key entry"), the same floor as the HS256 signing key. */
export const API_KEY_MIN_BYTES = 32;

/**
 * Shortest `Retry-After` answered. RFC 9110 §10.2.3 allows only whole seconds, and 0 would invite an
 * immediate retry into the same closed window.
 */
export const MIN_RETRY_AFTER_SECONDS = 1;

/** Cache-key prefix of login-lock counters. */
export const LOGIN_LOCK_KEY_PREFIX = 'sec:lock:';

/** Cache-key prefix of rate-limit counters. */
export const RATE_LIMIT_KEY_PREFIX = 'sec:rl:';
