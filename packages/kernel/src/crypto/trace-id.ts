/**
 * Trace ids: 128 bits as 32 lower-case hex characters (the W3C trace-id form), ordered by creation time. The first
 * 48 bits are the Unix time in milliseconds, the other 80 are random (the layout of a GUID v7 without its version
 * and variant bits; W3C Trace Context level 2 asks for randomness in the right-most 7 bytes). Every log row carries
 * one; the logs keep no index on it (docs/observability.md), but an index an operator adds receives ids that grow
 * with time at its right edge instead of at random pages (with random ids such an index made a logged row several
 * times dearer on SQLite, issue 16). 80 random bits keep ids of one millisecond apart (a collision needs about 2^40
 * ids in the same millisecond).
 *
 * Random bytes come from a pool refilled from the CSPRNG every 256 ids; the hex of the time is kept per millisecond.
 */
import { randomFillSync } from 'node:crypto';

const RANDOM_BYTES = 10;
const POOL_IDS = 256;
const pool = Buffer.alloc(RANDOM_BYTES * POOL_IDS);
/** The pool as hex, made once per refill: an id takes a slice of it, not a conversion of its own. */
let poolHex = '';
let offset = pool.length;
let lastMs = Number.NaN;
let timeHex = '';

/**
 * A new trace id for the time `nowMs` (Unix milliseconds).
 * @example traceIdAt(Date.now()) // '019ac0f3a1b2' + 20 random hex characters
 */
export function traceIdAt(nowMs: number): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    poolHex = pool.toString('hex');
    offset = 0;
  }
  const random = poolHex.slice(offset * 2, (offset + RANDOM_BYTES) * 2);
  offset += RANDOM_BYTES;
  if (nowMs !== lastMs) {
    lastMs = nowMs;
    // 48 bits of milliseconds last until the year 10889; the mask keeps any input to 12 characters.
    timeHex = (Math.max(0, Math.floor(nowMs)) % 2 ** 48).toString(16).padStart(12, '0');
  }
  return timeHex + random;
}
