/**
 * GUID version 7 (RFC 9562 §5.7): 48-bit Unix milliseconds, then random bits, so ids sort by creation time.
 * Within one millisecond a 12-bit counter (seeded randomly) in `rand_a` keeps ids from one process monotonic
 * (RFC 9562 §6.2, method 1); on overflow the timestamp is advanced by one millisecond.
 */
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/** A new GUID v7 in canonical lower-case 8-4-4-4-12 form. */
export function guidV7(now: number = Date.now()): string {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    counter++;
    if (counter > 0xfff) {
      ms++;
      counter = randomBytes(2).readUInt16BE(0) & 0x7ff;
    }
  } else {
    counter = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const GUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** True for a canonical lower-case GUID v7. */
export function isGuidV7(value: string): boolean {
  return GUID_V7.test(value);
}
