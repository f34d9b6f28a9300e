/**
 * Recovery codes: random `XXXXX-XXXXX` codes handed out once at binding, stored only as SHA-256 hashes (they
 * are random and high-entropy, so a fast hash is enough, as for refresh tokens). Input is compared after
 * removing spaces and dashes and upper-casing, so a code typed as shown, in lower case or without the dash
 * works.
 */
import { randomString, sha256Hex } from '@svc/kernel';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH } from './constants.js';

/** `count` new codes as shown to the user. */
export function generateRecoveryCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    const raw = randomString(RECOVERY_CODE_LENGTH, RECOVERY_CODE_ALPHABET);
    codes.add(`${raw.slice(0, 5)}-${raw.slice(5)}`);
  }
  return [...codes];
}

/** The stored hash of a code as typed (normalised first). */
export function hashRecoveryCode(code: string): string {
  return sha256Hex(`svc-recovery:${code.replace(/[\s-]/g, '').toUpperCase()}`);
}
