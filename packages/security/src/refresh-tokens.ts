/**
 * Refresh tokens: opaque random strings handed to the client once; only their SHA-256 is stored
 * (`sys_refresh_token`), so a leaked table holds nothing that can be presented.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@svc/kernel';
import { REFRESH_TOKEN_BYTES } from './constants.js';

/** A new refresh token and the hash to store for it. */
export interface NewRefreshToken {
  /** Sent to the client (body or `app_rt` cookie); never stored. */
  token: string;
  /** Lower-case hex SHA-256 of `token`: the stored lookup key. */
  hash: string;
}

/** base64url of {@link REFRESH_TOKEN_BYTES} bytes, unpadded. */
const WELL_FORMED = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((REFRESH_TOKEN_BYTES * 4) / 3)}}$`);

/** Creates a refresh token of 32 random bytes (base64url) and its SHA-256 hex hash. */
export function newRefreshToken(): NewRefreshToken {
  const token = randomBytes(REFRESH_TOKEN_BYTES).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

/** The stored form of a presented refresh token. */
export function hashRefreshToken(token: string): string {
  return sha256Hex(token);
}

/**
 * Whether `token` has the shape of one of ours; a cheap way to refuse junk (or a megabyte of it) before a
 * hash and a database lookup. Shape only: the lookup by hash decides.
 */
export function isWellFormedRefreshToken(token: unknown): token is string {
  return typeof token === 'string' && WELL_FORMED.test(token);
}
