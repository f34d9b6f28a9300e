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
 * The PBKDF2 primitive a hasher runs (libuv's thread pool by default). Injectable so a test can count the
 * iterations each outcome costs instead of timing it.
 */
export type Pbkdf2Derive = (
  password: string,
  salt: Buffer,
  iterations: number,
  keyLength: number,
) => Promise<Buffer>;

const defaultDerive: Pbkdf2Derive = (password, salt, iterations, keyLength) =>
  pbkdf2Async(password, salt, iterations, keyLength, 'sha256');

/** Hashing and verification at one configured strength. */
export interface PasswordHasher {
  /** The effective iteration count of new hashes (and the cost of every verification). */
  readonly iterations: number;
  hash(plain: string): Promise<string>;
  /**
   * Verifies `plain` against `stored` at the cost of one hash of the current strength, whatever `stored`
   * holds: a hash of fewer iterations is topped up with the difference, a malformed value costs a full hash.
   * So an old account, a current one and an unknown one (see {@link PasswordHasher.verifyNothing}) cannot be
   * told apart by the time a wrong password takes. A hash of more iterations than the current setting costs
   * what it costs (it can only exist after the operator lowered the setting).
   */
  verify(plain: string, stored: string): Promise<boolean>;
  /** Costs what {@link PasswordHasher.verify} costs and never succeeds (an unknown account). */
  verifyNothing(plain: string): Promise<false>;
  /** True when `stored` was made at another strength (rehash at the next successful login). */
  needsRehash(stored: string): boolean;
}

/**
 * Creates a hasher at `iterations` (raised to the floor of 100,000).
 * @example
 * const hasher = createPasswordHasher({ iterations: options.Security.Password.Pbkdf2Iterations });
 * const ok = await hasher.verify(password, user?.password ?? '');
 */
export function createPasswordHasher(
  options: {
    /** @default 600000 */
    iterations?: number;
    /** @default node:crypto pbkdf2 on the thread pool */
    derive?: Pbkdf2Derive;
  } = {},
): PasswordHasher {
  const iterations = effectiveIterations(options.iterations ?? PBKDF2_DEFAULT_ITERATIONS);
  const derive = options.derive ?? defaultDerive;
  const burn = async (plain: string, count: number) => {
    if (count > 0)
      await derive(plain.normalize('NFC'), randomBytes(PBKDF2_SALT_BYTES), count, PBKDF2_KEY_BYTES);
  };
  return {
    iterations,
    async hash(plain) {
      const salt = randomBytes(PBKDF2_SALT_BYTES);
      const key = await derive(plain.normalize('NFC'), salt, iterations, PBKDF2_KEY_BYTES);
      return `${PBKDF2_HASH_PREFIX}$${iterations}$${salt.toString('base64')}$${key.toString('base64')}`;
    },
    async verify(plain, stored) {
      const parsed = parseHash(stored);
      if (!parsed) {
        await burn(plain, iterations);
        return false;
      }
      const key = await derive(plain.normalize('NFC'), parsed.salt, parsed.iterations, parsed.key.length);
      // Top up to the current strength before answering, whatever the outcome.
      await burn(plain, iterations - parsed.iterations);
      return timingSafeEqual(key, parsed.key);
    },
    async verifyNothing(plain) {
      await burn(plain, iterations);
      return false;
    },
    needsRehash: (stored) => iterationsOf(stored) !== iterations,
  };
}

/**
 * Verifies a password against a stored hash at the cost of one hash of `currentIterations` (see
 * {@link PasswordHasher.verify}). A malformed stored value never matches.
 */
export async function verifyPassword(
  plain: string,
  stored: string,
  currentIterations: number = PBKDF2_DEFAULT_ITERATIONS,
): Promise<boolean> {
  return createPasswordHasher({ iterations: currentIterations }).verify(plain, stored);
}

/** True when the stored hash was made with another iteration count than the current one (or is not ours). */
export function needsRehash(stored: string, currentIterations: number = PBKDF2_DEFAULT_ITERATIONS): boolean {
  return iterationsOf(stored) !== effectiveIterations(currentIterations);
}
