import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { devJwtKeyPath, resolveJwtKey } from './dev-key.js';
import { guidV7, isGuidV7 } from './guid.js';
import { constantTimeEqual, sha256Hex } from './hash.js';
import { effectiveIterations, hashPassword, iterationsOf, needsRehash, verifyPassword } from './password.js';
import { generateSeedPassword, randomDigits } from './random.js';

describe('PBKDF2 passwords', () => {
  it('records the iteration count and verifies', async () => {
    const stored = await hashPassword('Secret123', 100_000);
    expect(stored).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(iterationsOf(stored)).toBe(100_000);
    expect(await verifyPassword('Secret123', stored)).toBe(true);
    expect(await verifyPassword('Secret124', stored)).toBe(false);
  });

  it('raises counts below the floor to 100000', async () => {
    expect(effectiveIterations(1000)).toBe(100_000);
    expect(iterationsOf(await hashPassword('x', 5))).toBe(100_000);
    expect(effectiveIterations()).toBe(600_000);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same', 100_000)).not.toBe(await hashPassword('same', 100_000));
  });

  it('says when a stored hash needs a rehash', async () => {
    const stored = await hashPassword('pw', 100_000);
    expect(needsRehash(stored, 100_000)).toBe(false);
    expect(needsRehash(stored, 200_000)).toBe(true);
    expect(needsRehash('not-a-hash', 100_000)).toBe(true);
  });

  it('never matches a malformed stored value', async () => {
    expect(await verifyPassword('pw', 'pbkdf2-sha256$abc$$', 100_000)).toBe(false);
    expect(await verifyPassword('', '', 100_000)).toBe(false);
  });
});

describe('hashing and comparison', () => {
  it('sha256Hex matches the known vector', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('constantTimeEqual compares content and length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});

describe('GUID v7', () => {
  it('is well-formed, unique and time-ordered', () => {
    const ids = Array.from({ length: 5000 }, () => guidV7());
    expect(ids.every(isGuidV7)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
  it('encodes the timestamp in the first 48 bits', () => {
    const at = Date.UTC(2030, 0, 1);
    const id = guidV7(at);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(at);
  });
});

describe('random values', () => {
  it('seed passwords are 16 characters without look-alikes and with every class', () => {
    for (let i = 0; i < 200; i++) {
      const pw = generateSeedPassword();
      expect(pw).toHaveLength(16);
      expect(pw).not.toMatch(/[0O1lIo]/);
      expect(pw).toMatch(/[A-Z]/);
      expect(pw).toMatch(/[a-z]/);
      expect(pw).toMatch(/[2-9]/);
    }
  });
  it('digit codes have the asked length', () => {
    expect(randomDigits(6)).toMatch(/^\d{6}$/);
  });
});

describe('JWT key resolution', () => {
  const root = () => mkdtempSync(join(tmpdir(), 'svc-key-'));
  it('uses a configured key of at least 32 bytes', () => {
    const key = resolveJwtKey({ secretKey: 'k'.repeat(32), isDevelopment: false, contentRoot: root() });
    expect(key.source).toBe('config');
    expect(key.key).toHaveLength(32);
  });
  it('refuses a short key in every environment', () => {
    expect(() => resolveJwtKey({ secretKey: 'short', isDevelopment: true, contentRoot: root() })).toThrow(
      /Service:Jwt:SecretKey is 5 bytes/,
    );
  });
  it('refuses a missing key outside Development', () => {
    expect(() => resolveJwtKey({ secretKey: null, isDevelopment: false, contentRoot: root() })).toThrow(
      /Service:Jwt:SecretKey is not set/,
    );
  });
  it('persists a 64-byte development key and reuses it', () => {
    const dir = root();
    const first = resolveJwtKey({ secretKey: null, isDevelopment: true, contentRoot: dir });
    expect(first.source).toBe('dev-file');
    expect(first.key).toHaveLength(64);
    expect(existsSync(devJwtKeyPath(dir))).toBe(true);
    expect(statSync(devJwtKeyPath(dir)).mode & 0o077).toBe(0);
    const second = resolveJwtKey({ secretKey: null, isDevelopment: true, contentRoot: dir });
    expect(Buffer.from(second.key).equals(Buffer.from(first.key))).toBe(true);
    expect(readFileSync(devJwtKeyPath(dir), 'utf8').trim()).toBe(Buffer.from(first.key).toString('base64'));
  });
  it('refuses a corrupted development key file instead of replacing it', () => {
    const dir = root();
    resolveJwtKey({ secretKey: null, isDevelopment: true, contentRoot: dir });
    writeFileSync(devJwtKeyPath(dir), 'AAAA');
    expect(() => resolveJwtKey({ secretKey: null, isDevelopment: true, contentRoot: dir })).toThrow(
      /64-byte/,
    );
  });
});
