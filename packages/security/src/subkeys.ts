/**
 * Purpose-bound keys derived from one master secret (the JWT signing key) with HKDF-SHA256 (RFC 5869), so
 * that the CSRF MAC, signed links and the like never reuse the token-signing key itself: a value made for one
 * purpose can never verify for another.
 */
import { hkdfSync } from 'node:crypto';

/** Bytes of a derived key: the SHA-256 output size, the most HMAC-SHA256 gains from (RFC 2104 §3). */
export const SUBKEY_BYTES = 32;

/**
 * The key for `purpose` (a fixed label such as `'csrf'`), derived from `master`.
 * @example
 * const csrfKey = deriveSubkey(jwtKey, 'csrf');
 */
export function deriveSubkey(master: Uint8Array, purpose: string): Uint8Array {
  if (master.byteLength === 0) throw new RangeError('The master key is empty.');
  if (purpose === '') throw new RangeError('A subkey needs a purpose label.');
  return new Uint8Array(hkdfSync('sha256', master, new Uint8Array(0), `svc/${purpose}`, SUBKEY_BYTES));
}
