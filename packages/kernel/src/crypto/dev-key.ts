/**
 * JWT signing-key resolution (spec "Key resolution rules"):
 * 1. `SecretKey` of at least 32 bytes is used. 2. A shorter one stops start-up. 3. None outside Development
 * stops start-up. 4. None in Development: a 64-byte key is generated once, persisted at
 * `{ContentRoot}/data/dev-jwt.key` (owner-only permissions) and reused across restarts.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEV_JWT_KEY_BYTES, JWT_MIN_SECRET_BYTES } from './constants.js';

export class JwtKeyError extends Error {
  override readonly name = 'JwtKeyError';
}

export interface JwtKeyInput {
  secretKey: string | null | undefined;
  isDevelopment: boolean;
  contentRoot: string;
}

export interface ResolvedJwtKey {
  key: Uint8Array;
  source: 'config' | 'dev-file';
  /** Set when the key came from the development file. */
  path?: string;
}

/** Path of the persisted development key. */
export const devJwtKeyPath = (contentRoot: string): string => join(contentRoot, 'data', 'dev-jwt.key');

/** Applies the four rules. Throws `JwtKeyError` naming `Service:Jwt:SecretKey` when start-up must stop. */
export function resolveJwtKey(input: JwtKeyInput): ResolvedJwtKey {
  const secret = input.secretKey ?? '';
  if (secret.length > 0) {
    const bytes = Buffer.from(secret, 'utf8');
    if (bytes.length < JWT_MIN_SECRET_BYTES) {
      throw new JwtKeyError(
        `Service:Jwt:SecretKey is ${bytes.length} bytes; at least ${JWT_MIN_SECRET_BYTES} bytes are required.`,
      );
    }
    return { key: new Uint8Array(bytes), source: 'config' };
  }
  if (!input.isDevelopment) {
    throw new JwtKeyError(
      'Service:Jwt:SecretKey is not set. Outside Development a signing key of at least 32 bytes is required ' +
        '(environment variable Service__Jwt__SecretKey).',
    );
  }
  const path = devJwtKeyPath(input.contentRoot);
  return { key: loadOrCreateDevKey(path), source: 'dev-file', path };
}

/** Reads the development key, creating it on first use. A file of the wrong size is an error, never replaced. */
export function loadOrCreateDevKey(path: string): Uint8Array {
  try {
    const existing = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (existing.length !== DEV_JWT_KEY_BYTES) {
      throw new JwtKeyError(
        `${path} does not hold a ${DEV_JWT_KEY_BYTES}-byte base64 key; delete it to regenerate.`,
      );
    }
    return new Uint8Array(existing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const key = randomBytes(DEV_JWT_KEY_BYTES);
  try {
    // `wx`: if another process created it meanwhile, read theirs instead of overwriting it.
    writeFileSync(path, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateDevKey(path);
    throw error;
  }
  return new Uint8Array(key);
}
