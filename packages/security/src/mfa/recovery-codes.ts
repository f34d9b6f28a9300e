/**
 * Recovery codes: random `XXXXX-XXXXX` codes handed out once at binding. A code carries about 50 bits, few
 * enough that an unkeyed hash of it is searched offline in hours once the table leaks, so the stored form is an
 * HMAC-SHA256 under a key the database never holds: derived (HKDF, `subkeys.ts`) from the data-protection master
 * key that seals the TOTP seeds. Codes exist only beside a sealed seed, so they need no key of their own: every
 * instance that can open the seeds verifies the codes, and a lost master key loses both together. A fast keyed
 * hash is enough (the code is random; the key, not the work factor, is what an offline search lacks).
 *
 * Input is compared after removing ASCII whitespace (as for every typed code, `typed-code.ts`) and dashes and
 * upper-casing ASCII letters, so a code typed as shown, in lower case or without the dash works. Nothing else is
 * folded: other spaces and letters whose upper case is ASCII (`ſ` → `S`, `ı` → `I`, the `ﬆ` ligature → `ST`) make
 * another code.
 *
 * Earlier releases stored `SHA-256("svc-recovery:" + code)` (64 hex digits, no prefix). At start-up every such
 * row is rewrapped in place as `k0:` + HMAC-SHA256 of that hex under the same key (`wrapLegacy`), so the table
 * no longer holds anything searchable without the key; a typed code is then tried as `k1:`, as `k0:` and, for a
 * row an instance of an earlier release wrote after that pass (a rolling upgrade), in the plain form. Using any
 * of them clears the binding and every code of it; new bindings store `k1:` only (docs/security-model.md).
 */
import { createHmac } from 'node:crypto';
import { randomString, sha256Hex } from '@svc/kernel';
import { deriveSubkey } from '../subkeys.js';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH } from './constants.js';
import { withoutAsciiWhitespace } from './typed-code.js';

/** Marks the keyed form (version 1), so it is never mistaken for an unkeyed hash of an earlier release. */
const KEYED_PREFIX = 'k1:';
/** Marks an unkeyed value of an earlier release rewrapped under the key (`k0:` + HMAC of its hex). */
const WRAPPED_PREFIX = 'k0:';
/** The unkeyed form of earlier releases: 64 lower-case hex digits. */
const LEGACY_FORM = /^[0-9a-f]{64}$/;
/** HKDF purpose of the key: it MACs recovery codes and nothing else. */
const KEY_PURPOSE = 'mfa/recovery-code/v1';

/** Stores and recognises recovery codes under the server-held key. */
export interface RecoveryCodeHasher {
  /** The stored form of a code (`k1:` + hex HMAC-SHA256). */
  hash(code: string): string;
  /**
   * What a typed code may be stored as: the keyed form, the rewrapped unkeyed form of earlier releases, and that
   * unkeyed form itself (a row an earlier release's instance wrote after the start-up rewrap).
   */
  candidates(code: string): { keyed: string; wrapped: string; legacy: string };
  /** The rewrapped form (`k0:`) of a stored unkeyed value; undefined for anything that is not one. */
  wrapLegacy(stored: string): string | undefined;
}

/** `count` new codes as shown to the user. */
export function generateRecoveryCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    const raw = randomString(RECOVERY_CODE_LENGTH, RECOVERY_CODE_ALPHABET);
    codes.add(`${raw.slice(0, 5)}-${raw.slice(5)}`);
  }
  return [...codes];
}

/** A code as typed, in the one form that is hashed. */
function canonical(code: string): string {
  const bare = withoutAsciiWhitespace(code).replaceAll('-', '');
  return bare.replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

/** The unkeyed form earlier releases stored; only ever compared, never written. */
export function legacyRecoveryCodeHash(code: string): string {
  return sha256Hex(`svc-recovery:${canonical(code)}`);
}

/**
 * The hasher under `masterKey` (the data-protection master key).
 * @example
 * const codes = createRecoveryCodeHasher(masterKey.key);
 * await repos.totp.bind(userId, sealed, generateRecoveryCodes(10).map(codes.hash), now);
 */
export function createRecoveryCodeHasher(masterKey: Uint8Array): RecoveryCodeHasher {
  const key = deriveSubkey(masterKey, KEY_PURPOSE);
  const mac = (text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
  const hash = (code: string) => `${KEYED_PREFIX}${mac(canonical(code))}`;
  // The two inputs never meet: a canonical code is 10 upper-case letters and digits, a legacy value 64 hex digits.
  const wrap = (legacy: string) => `${WRAPPED_PREFIX}${mac(legacy)}`;
  return {
    hash,
    candidates: (code) => {
      const legacy = legacyRecoveryCodeHash(code);
      return { keyed: hash(code), wrapped: wrap(legacy), legacy };
    },
    wrapLegacy: (stored) => (LEGACY_FORM.test(stored) ? wrap(stored) : undefined),
  };
}
