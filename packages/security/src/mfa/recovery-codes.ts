/**
 * Recovery codes: random `XXXXX-XXXXX` codes handed out once at binding, stored only as SHA-256 hashes (they
 * are random and high-entropy, so a fast hash is enough, as for refresh tokens). Input is compared after
 * removing ASCII whitespace (as for every typed code, `typed-code.ts`) and dashes and upper-casing ASCII letters,
 * so a code typed as shown, in lower case or without the dash works. Nothing else is folded: other spaces and
 * letters whose upper case is ASCII (`ſ` → `S`, `ı` → `I`, the `ﬆ` ligature → `ST`) make another code. Generated
 * codes are ASCII, so their stored hashes are the same under this rule as under the older Unicode one.
 */
import { randomString, sha256Hex } from '@svc/kernel';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH } from './constants.js';
import { withoutAsciiWhitespace } from './typed-code.js';

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
  const bare = withoutAsciiWhitespace(code).replaceAll('-', '');
  return sha256Hex(`svc-recovery:${bare.replace(/[a-z]/g, (letter) => letter.toUpperCase())}`);
}
