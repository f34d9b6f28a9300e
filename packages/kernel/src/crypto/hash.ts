/**
 * SHA-256 and constant-time comparison.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Lower-case hex SHA-256 of a UTF-8 string or bytes. */
export function sha256Hex(input: string | Uint8Array): string {
  return createHash('sha256').update(input).digest('hex');
}

/**
 * Compares two secrets in time independent of where they differ and of their lengths: both sides are
 * hashed to 32 bytes first, so `timingSafeEqual` never sees unequal lengths.
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db) && byteLength(a) === byteLength(b);
}

function byteLength(v: string | Uint8Array): number {
  return typeof v === 'string' ? Buffer.byteLength(v) : v.byteLength;
}
