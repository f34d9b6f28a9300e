import { describe, expect, it } from 'vitest';
import { base32Decode, totpAt } from './rfc6238.contract.js';

describe('the test-side RFC 6238 generator', () => {
  it('reproduces the SHA-1 test vectors of RFC 6238 Appendix B', () => {
    const key = Buffer.from('12345678901234567890', 'ascii');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [t, code] of vectors) {
      expect(totpAt(key, t, 8)).toBe(code);
      expect(totpAt(key, t)).toBe(code.slice(2));
    }
  });

  it('decodes Base32 as RFC 4648 §10 shows', () => {
    expect(base32Decode('MZXW6YTBOI======').toString()).toBe('foobar');
    expect(base32Decode('gezdgnbvgy3tqojqgezdgnbvgy3tqojq').toString()).toBe('12345678901234567890');
  });
});
