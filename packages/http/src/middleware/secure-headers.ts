/**
 * The headers every `/api/` response carries (contract §10): API answers hold tokens, personal data and
 * one-time secrets, so no browser or proxy may cache them, sniff them into another type, send their URL on as
 * a referrer or frame them. Pages of the web root keep headers suited to pages (they are not listed here).
 *
 * One header goes with every answer, API, console page, asset, probe or error alike (contract §11): the
 * {@link PERMISSIONS_POLICY}. It is written wherever the trace id is.
 */

/**
 * Permissions Policy (W3C): the powerful browser features an admin console never uses are denied to the page and
 * to anything it frames, so an injected script or a framed third party cannot ask for them; WebAuthn assertions
 * (passkey sign-in) stay allowed to this origin only.
 */
export const PERMISSIONS_POLICY: readonly [string, string] = [
  'Permissions-Policy',
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), publickey-credentials-get=(self)',
];

/**
 * Header name and value pairs, in the form `ServerResponse.setHeader` takes: for the paths of the API,
 * `/api` and everything under it (pipeline.ts `isApiPath`).
 */
export const API_SECURE_HEADERS: readonly (readonly [string, string])[] = [
  // RFC 9111 §5.2.2.5: nothing of the answer is stored, by the browser or any shared cache.
  ['Cache-Control', 'no-store'],
  // Fetch standard: a JSON or file answer is never sniffed into HTML or script.
  ['X-Content-Type-Options', 'nosniff'],
  // Referrer Policy: URLs of the API (ids, signed links) are never sent on.
  ['Referrer-Policy', 'no-referrer'],
  // RFC 7034: API answers are never framed (clickjacking of an endpoint rendered in a frame).
  ['X-Frame-Options', 'DENY'],
];

/**
 * A Node response that writes the trace id and the secure headers itself, in the one header write it makes
 * (listen.ts's response class): the first stage then stores two fields instead of making five `setHeader`
 * calls, each validated and later merged again by Node (issue 16).
 */
export const PRESET = Symbol('svc.presetHeaders');

export interface PresetHeaders {
  readonly [PRESET]: true;
  /** The trace id to answer in `X-Trace-Id`; cleared once written. */
  presetTraceId: string | undefined;
  /** Whether the {@link API_SECURE_HEADERS} go with it. */
  presetSecure: boolean;
}

export function hasPresetHeaders(response: object): response is PresetHeaders {
  return (response as Partial<PresetHeaders>)[PRESET] === true;
}
