/**
 * PBKDF2-HMAC-SHA256 password hashing. The stored string records algorithm and iteration count
 * (`pbkdf2-sha256$<iterations>$<salt>$<hash>`, base64), so raising the count later only needs a rehash at the
 * next successful login. Hashing runs on libuv's thread pool (never the sync variant on a request path).
 */
import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import {
  PBKDF2_DEFAULT_ITERATIONS,
  PBKDF2_HASH_PREFIX,
  PBKDF2_KEY_BYTES,
  PBKDF2_MIN_ITERATIONS,
  PBKDF2_SALT_BYTES,
} from './constants.js';

const pbkdf2Async = promisify(pbkdf2);

/** The iteration count actually used: the configured value, raised to the floor of 100,000. */
export function effectiveIterations(configured: number = PBKDF2_DEFAULT_ITERATIONS): number {
  return Math.max(Math.floor(configured), PBKDF2_MIN_ITERATIONS);
}

/** Hashes a password with a fresh salt. */
export async function hashPassword(
  plain: string,
  iterations: number = PBKDF2_DEFAULT_ITERATIONS,
): Promise<string> {
  const count = effectiveIterations(iterations);
  const salt = randomBytes(PBKDF2_SALT_BYTES);
  const key = await pbkdf2Async(plain.normalize('NFC'), salt, count, PBKDF2_KEY_BYTES, 'sha256');
  return `${PBKDF2_HASH_PREFIX}$${count}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  iterations: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 4 || parts[0] !== PBKDF2_HASH_PREFIX) return undefined;
  const iterations = Number(parts[1]);
  if (!Number.isSafeInteger(iterations) || iterations < 1) return undefined;
  const salt = Buffer.from(parts[2] ?? '', 'base64');
  const key = Buffer.from(parts[3] ?? '', 'base64');
  if (salt.length === 0 || key.length === 0) return undefined;
  return { iterations, salt, key };
}

/** The iteration count recorded in a stored hash, or undefined when the string is not one of ours. */
export function iterationsOf(stored: string): number | undefined {
  return parseHash(stored)?.iterations;
}

/**
 * Verifies a password against a stored hash. A malformed stored value never matches (and costs a hash at
 * the current count, so that it cannot be told apart by timing).
 */
export async function verifyPassword(
  plain: string,
  stored: string,
  currentIterations: number = PBKDF2_DEFAULT_ITERATIONS,
): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) {
    await hashPassword(plain, currentIterations);
    return false;
  }
  const key = await pbkdf2Async(
    plain.normalize('NFC'),
    parsed.salt,
    parsed.iterations,
    parsed.key.length,
    'sha256',
  );
  return timingSafeEqual(key, parsed.key);
}

/** True when the stored hash was made with another iteration count than the current one (or is not ours). */
export function needsRehash(stored: string, currentIterations: number = PBKDF2_DEFAULT_ITERATIONS): boolean {
  return iterationsOf(stored) !== effectiveIterations(currentIterations);
}
