/**
 * Security parameters, each with the reason for its value.
 */

/** OWASP Password Storage Cheat Sheet (2023+) recommends 600,000 iterations for PBKDF2-HMAC-SHA256. */
export const PBKDF2_DEFAULT_ITERATIONS = 600_000;
/** The spec's floor: configured values below it are raised to it, never honoured. */
export const PBKDF2_MIN_ITERATIONS = 100_000;
/** 128-bit salt (NIST SP 800-132 asks for at least 128 bits). */
export const PBKDF2_SALT_BYTES = 16;
/** Output length equal to the SHA-256 block output: longer output adds no strength, only cost for us. */
export const PBKDF2_KEY_BYTES = 32;
/** Identifier written at the start of every stored hash so that the format can evolve. */
export const PBKDF2_HASH_PREFIX = 'pbkdf2-sha256';
/** HS256 needs a key of at least the hash size (RFC 7518 §3.2): 256 bits. */
export const JWT_MIN_SECRET_BYTES = 32;
/** Size of the persisted development signing key: the HMAC-SHA256 block size, the most a key can usefully be. */
export const DEV_JWT_KEY_BYTES = 64;
/** Seed passwords: 16 characters from an alphabet without look-alikes (0/O/o, 1/l/I). */
export const SEED_PASSWORD_LENGTH = 16;
export const UNAMBIGUOUS_UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
export const UNAMBIGUOUS_LOWER = 'abcdefghijkmnpqrstuvwxyz';
export const UNAMBIGUOUS_DIGITS = '23456789';
export const UNAMBIGUOUS_SPECIAL = '#%+=@_';
