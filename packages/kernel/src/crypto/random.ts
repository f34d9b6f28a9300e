/**
 * Cryptographically random values: strings over an alphabet (unbiased, via `randomInt`), secrets, and the
 * seed password.
 */
import { randomBytes, randomInt } from 'node:crypto';
import {
  SEED_PASSWORD_LENGTH,
  UNAMBIGUOUS_DIGITS,
  UNAMBIGUOUS_LOWER,
  UNAMBIGUOUS_SPECIAL,
  UNAMBIGUOUS_UPPER,
} from './constants.js';

/** A random string of `length` characters drawn uniformly from `alphabet`. */
export function randomString(length: number, alphabet: string): string {
  if (alphabet.length < 2) throw new Error('randomString needs an alphabet of at least two characters.');
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet.charAt(randomInt(alphabet.length));
  return out;
}

/** A string of `length` random decimal digits (SMS codes), leading zeros allowed. */
export function randomDigits(length: number): string {
  return randomString(length, '0123456789');
}

/**
 * A random secret as base64url text.
 * @default bytes 32 (256 bits, the floor the spec sets for API keys)
 */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * A 16-character password without easily confused characters, holding at least one upper-case letter,
 * one lower-case letter, one digit and one special character, so that it passes any default policy.
 */
export function generateStrongPassword(length = SEED_PASSWORD_LENGTH): string {
  const classes = [UNAMBIGUOUS_UPPER, UNAMBIGUOUS_LOWER, UNAMBIGUOUS_DIGITS, UNAMBIGUOUS_SPECIAL];
  const all = classes.join('');
  for (;;) {
    const candidate = randomString(length, all);
    if (classes.every((chars) => [...candidate].some((ch) => chars.includes(ch)))) return candidate;
  }
}

/** The seed password of the first start (spec "First-start seed", rule 4). */
export const generateSeedPassword = (): string => generateStrongPassword(SEED_PASSWORD_LENGTH);
