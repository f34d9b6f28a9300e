/**
 * Master-key resolution of the secret protector, mirroring the JWT key rules: `Service:Security:
 * DataProtection:MasterKey` of at least 32 bytes is used; a shorter one stops start-up; in Development, without
 * one, a 32-byte key is generated once, persisted at `{ContentRoot}/data/dev-protection.key` (owner-only) and
 * reused across restarts. Outside Development there is no fallback: without a key the answer is `undefined`,
 * and the caller keeps TOTP off (or stops start-up when the deploy-time floor demands TOTP).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** 256 bits: the AES-256 key size the protector derives its key-encryption key to. */
export const MASTER_KEY_MIN_BYTES = 32;

export class MasterKeyError extends Error {
  override readonly name = 'MasterKeyError';
}

export interface ResolvedMasterKey {
  key: Uint8Array;
  source: 'config' | 'dev-file';
  path?: string;
}

/** Path of the persisted development key. */
export const devProtectionKeyPath = (contentRoot: string): string =>
  join(contentRoot, 'data', 'dev-protection.key');

/** Applies the rules above; throws `MasterKeyError` naming the key when start-up must stop. */
export function resolveMasterKey(input: {
  masterKey: string | null | undefined;
  isDevelopment: boolean;
  contentRoot: string;
}): ResolvedMasterKey | undefined {
  const configured = input.masterKey ?? '';
  if (configured.length > 0) {
    const bytes = Buffer.from(configured, 'utf8');
    if (bytes.length < MASTER_KEY_MIN_BYTES) {
      throw new MasterKeyError(
        `Service:Security:DataProtection:MasterKey is ${bytes.length} bytes; at least ${MASTER_KEY_MIN_BYTES} bytes are required.`,
      );
    }
    return { key: new Uint8Array(bytes), source: 'config' };
  }
  if (!input.isDevelopment) return undefined;
  const path = devProtectionKeyPath(input.contentRoot);
  return { key: loadOrCreate(path), source: 'dev-file', path };
}

function loadOrCreate(path: string): Uint8Array {
  try {
    const existing = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (existing.length !== MASTER_KEY_MIN_BYTES) {
      throw new MasterKeyError(
        `${path} does not hold a ${MASTER_KEY_MIN_BYTES}-byte base64 key; restore it (sealed TOTP seeds need it).`,
      );
    }
    return new Uint8Array(existing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const key = randomBytes(MASTER_KEY_MIN_BYTES);
  try {
    // `wx`: when another process created it meanwhile, read theirs instead of overwriting it.
    writeFileSync(path, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreate(path);
    throw error;
  }
  return new Uint8Array(key);
}
