/**
 * An RFC 6238 TOTP generator written for the tests, independent of the library the service uses: HMAC-SHA1
 * over the big-endian time-step counter, dynamic truncation (RFC 4226 §5.3), Base32 seeds (RFC 4648). Checked
 * against the RFC's own test vectors in `rfc6238.test.ts` before any contract trusts it.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Decodes RFC 4648 Base32 (padding and case ignored). */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error(`not Base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The TOTP of `key` at Unix time `seconds` (T0 = 0, step 30 s, SHA-1). */
export function totpAt(key: Buffer, seconds: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(seconds / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 6-digit code of a Base32 seed at a `Date`. */
export const totpCode = (seed: string, at: Date): string => totpAt(base32Decode(seed), at.getTime() / 1000);
