import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashRefreshToken, isWellFormedRefreshToken, newRefreshToken } from './refresh-tokens.js';

describe('refresh tokens', () => {
  it('carry at least 32 random bytes as base64url', () => {
    const { token } = newRefreshToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
  });

  it('are unique', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newRefreshToken().token));
    expect(tokens.size).toBe(1000);
  });

  it('come with the SHA-256 hex of the token, which hashRefreshToken reproduces', () => {
    const { token, hash } = newRefreshToken();
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashRefreshToken(token)).toBe(hash);
    expect(hash).not.toContain(token);
  });

  it('tells our shape from junk', () => {
    expect(isWellFormedRefreshToken(newRefreshToken().token)).toBe(true);
    for (const bad of ['', 'short', `${newRefreshToken().token}x`, 'a'.repeat(42) + '+', 7, null]) {
      expect(isWellFormedRefreshToken(bad)).toBe(false);
    }
  });
});
