/**
 * The secret protector: envelope encryption of stored secrets (TOTP seeds). Each secret gets its own random
 * 256-bit data key; the secret is sealed with AES-256-GCM under that data key, and the data key is sealed with
 * AES-256-GCM under the key-encryption key derived from the master key (HKDF-SHA256). A `context` (e.g. the
 * owning user) is bound in as additional authenticated data, so a sealed value copied to another row or
 * edited in place fails to open instead of yielding a secret.
 *
 * Stored form: `v1.<kid>.<wrapIv>.<wrappedKey+tag>.<iv>.<ciphertext+tag>` (base64url parts), where `kid` names
 * the master key it was sealed under, so a value sealed under another master key is reported as such.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { sha256Hex } from '@svc/kernel';

/** AES-256 key size (bytes). */
const KEY_BYTES = 32;
/** 96-bit IVs: the size GCM is specified for (NIST SP 800-38D §8.2); random per encryption. */
const IV_BYTES = 12;
/** Full 128-bit GCM tags. */
const TAG_BYTES = 16;
const FORMAT = 'v1';
/** HKDF `info`: the key-encryption key is used for nothing else. */
const KEK_INFO = 'svc/data-protection/kek/v1';
const WRAP_AAD = Buffer.from('svc/data-protection/dek/v1');

export class SecretProtectorError extends Error {
  override readonly name = 'SecretProtectorError';
}

export interface SecretProtector {
  /** Identifier of the master key in use (first 8 hex digits of the SHA-256 of its derived key). */
  readonly keyId: string;
  /** Seals `plaintext` for `context`. */
  seal(plaintext: string, context: string): string;
  /** Opens a sealed value for the same `context`; throws `SecretProtectorError` when it cannot. */
  open(sealed: string, context: string): string;
}

function gcmSeal(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array) {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { iv, body };
}

function gcmOpen(key: Uint8Array, iv: Buffer, body: Buffer, aad: Uint8Array): Buffer {
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES)
    throw new SecretProtectorError('Malformed sealed value.');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/**
 * Creates the protector over a master key of at least 32 bytes.
 * @example const protector = createSecretProtector(masterKey); const sealed = protector.seal(seed, 'totp:user:7');
 */
export function createSecretProtector(masterKey: Uint8Array): SecretProtector {
  if (masterKey.byteLength < KEY_BYTES) {
    throw new SecretProtectorError(`The master key must be at least ${KEY_BYTES} bytes.`);
  }
  const kek = new Uint8Array(hkdfSync('sha256', masterKey, new Uint8Array(0), KEK_INFO, KEY_BYTES));
  const keyId = sha256Hex(kek).slice(0, 8);

  return {
    keyId,

    seal(plaintext, context) {
      const dataKey = randomBytes(KEY_BYTES);
      const wrapped = gcmSeal(kek, dataKey, WRAP_AAD);
      const sealed = gcmSeal(dataKey, Buffer.from(plaintext, 'utf8'), Buffer.from(context, 'utf8'));
      dataKey.fill(0);
      return [FORMAT, keyId, b64(wrapped.iv), b64(wrapped.body), b64(sealed.iv), b64(sealed.body)].join('.');
    },

    open(value, context) {
      const parts = value.split('.');
      if (parts.length !== 6 || parts[0] !== FORMAT) throw new SecretProtectorError('Unknown sealed format.');
      const [, kid, wrapIv, wrapBody, iv, body] = parts as [string, string, string, string, string, string];
      if (kid !== keyId) {
        throw new SecretProtectorError(`Sealed under master key ${kid}, but the configured key is ${keyId}.`);
      }
      try {
        const dataKey = gcmOpen(
          kek,
          Buffer.from(wrapIv, 'base64url'),
          Buffer.from(wrapBody, 'base64url'),
          WRAP_AAD,
        );
        const plain = gcmOpen(
          dataKey,
          Buffer.from(iv, 'base64url'),
          Buffer.from(body, 'base64url'),
          Buffer.from(context, 'utf8'),
        );
        dataKey.fill(0);
        return plain.toString('utf8');
      } catch (error) {
        if (error instanceof SecretProtectorError) throw error;
        throw new SecretProtectorError('The sealed value does not open (edited, moved or another key).', {
          cause: error,
        });
      }
    },
  };
}
