import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCache } from '@svc/data/cache';
import { sha256Hex } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { GLYPHS } from './captcha/glyphs.js';
import { createCaptchaService } from './captcha/service.js';
import { renderCaptchaSvg } from './captcha/svg.js';
import { createClockStore } from './clock-store.js';
import { CAPTCHA_ALPHABET } from './constants.js';
import { isDefaultHighSensitivity } from './high-sensitivity.js';
import { devProtectionKeyPath, resolveMasterKey } from './master-key.js';
import { createSecretProtector, SecretProtectorError } from './protector.js';
import { createRecoveryCodeHasher, generateRecoveryCodes, legacyRecoveryCodeHash } from './recovery-codes.js';

const hashRecoveryCode = createRecoveryCodeHasher(new Uint8Array(32).fill(7)).hash;

import { maskPhone } from './sms.js';
import { withoutAsciiWhitespace } from './typed-code.js';

describe('secret protector', () => {
  const protector = createSecretProtector(Buffer.alloc(32, 7));

  it('round-trips, with a fresh data key and IV per seal', () => {
    const a = protector.seal('JBSWY3DPEHPK3PXP', 'totp:user:1');
    const b = protector.seal('JBSWY3DPEHPK3PXP', 'totp:user:1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(a.split('.')).toHaveLength(6);
    expect(protector.open(a, 'totp:user:1')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses another context, an edited value and another master key', () => {
    const sealed = protector.seal('seed', 'totp:user:1');
    expect(() => protector.open(sealed, 'totp:user:2')).toThrow(SecretProtectorError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[5] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[5] = body.toString('base64url');
    expect(() => protector.open(parts.join('.'), 'totp:user:1')).toThrow(SecretProtectorError);
    const other = createSecretProtector(Buffer.alloc(32, 8));
    expect(() => other.open(sealed, 'totp:user:1')).toThrow(/master key/);
    expect(() => createSecretProtector(Buffer.alloc(31))).toThrow(/32 bytes/);
  });
});

describe('master key', () => {
  const root = () => mkdtempSync(join(tmpdir(), 'svc-mk-'));
  it('uses a configured key of at least 32 bytes and refuses a shorter one', () => {
    expect(
      resolveMasterKey({ masterKey: 'm'.repeat(32), isDevelopment: false, contentRoot: root() })?.source,
    ).toBe('config');
    expect(() => resolveMasterKey({ masterKey: 'short', isDevelopment: true, contentRoot: root() })).toThrow(
      /DataProtection:MasterKey is 5 bytes/,
    );
  });
  it('has no fallback outside Development', () => {
    expect(resolveMasterKey({ masterKey: null, isDevelopment: false, contentRoot: root() })).toBeUndefined();
  });
  it('persists an owner-only development key and reuses it; a damaged file is an error', () => {
    const dir = root();
    const first = resolveMasterKey({ masterKey: null, isDevelopment: true, contentRoot: dir });
    expect(first?.source).toBe('dev-file');
    expect(existsSync(devProtectionKeyPath(dir))).toBe(true);
    expect(statSync(devProtectionKeyPath(dir)).mode & 0o077).toBe(0);
    const again = resolveMasterKey({ masterKey: null, isDevelopment: true, contentRoot: dir });
    expect(Buffer.from(again?.key ?? []).equals(Buffer.from(first?.key ?? [1]))).toBe(true);
    expect(readFileSync(devProtectionKeyPath(dir), 'utf8').trim()).toBe(
      Buffer.from(first?.key ?? []).toString('base64'),
    );
    writeFileSync(devProtectionKeyPath(dir), 'AAAA');
    expect(() => resolveMasterKey({ masterKey: null, isDevelopment: true, contentRoot: dir })).toThrow(
      /32-byte/,
    );
  });
});

describe('captcha image', () => {
  it('has a glyph for every character it can draw', () => {
    for (const ch of `${CAPTCHA_ALPHABET}0123456789+-×=?`) expect(GLYPHS[ch], ch).toBeDefined();
  });

  it('is a standalone SVG of paths: no text element, no answer in the markup, different every time', () => {
    for (const style of ['bold', 'wavy'] as const) {
      const svg = renderCaptchaSvg('KX7P', style);
      expect(svg).toMatch(
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="160" height="60" viewBox="0 0 160 60">/,
      );
      expect(svg.endsWith('</svg>')).toBe(true);
      expect(svg).not.toMatch(/<text|<title|<desc|font/i);
      expect(svg.toUpperCase()).not.toContain('KX7P');
      // Glyph strokes (4 glyphs, 1–3 strokes each) plus noise curves.
      expect((svg.match(/<path /g) ?? []).length).toBeGreaterThan(8);
      expect(svg).not.toBe(renderCaptchaSvg('KX7P', style));
    }
    expect(renderCaptchaSvg('KX7P', 'wavy')).toMatch(/Q\d/);
    expect(() => renderCaptchaSvg('O', 'bold')).toThrow(/no glyph/);
  });

  it('tickets are consumed by the first guess and compared case-insensitively', async () => {
    const cache = await createCache({ provider: 'Memory' });
    let now = Date.parse('2025-01-01T00:00:00Z');
    const captcha = createCaptchaService({ store: createClockStore(cache, () => new Date(now)) });
    const issued = await captcha.issue('char');
    const answer = (await cache.get<{ answer: string }>(`mfa:captcha:${issued.captchaId}`))?.answer ?? '';
    expect(answer).toMatch(/^[A-Z2-9]{4}$/);
    await expect(captcha.verify(issued.captchaId, answer.toLowerCase())).resolves.toBeUndefined();
    await expect(captcha.verify(issued.captchaId, answer)).rejects.toMatchObject({ code: 40002 });
    const wrong = await captcha.issue('math');
    await expect(captcha.verify(wrong.captchaId, 'nope')).rejects.toMatchObject({ code: 40003 });
    await expect(captcha.verify(wrong.captchaId, 'nope')).rejects.toMatchObject({ code: 40002 });
    const late = await captcha.issue('path');
    now += 2 * 60_000;
    await expect(captcha.verify(late.captchaId, 'x')).rejects.toMatchObject({ code: 40002 });
    await expect(captcha.verify(undefined, 'x')).rejects.toMatchObject({ code: 40002 });
    await cache.close();
  });
});

describe('clock store windows', () => {
  it('gives a cooldown to exactly one of many callers and reopens it by the service clock', async () => {
    const cache = await createCache({ provider: 'Memory' });
    let now = 1_000_000;
    const store = createClockStore(cache, () => new Date(now));
    const results = await Promise.all(Array.from({ length: 10 }, () => store.claimWindow('w', 60_000)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, retryAfterMs: 60_000 });
    now += 59_000;
    expect(await store.claimWindow('w', 60_000)).toEqual({ ok: false, retryAfterMs: 1_000 });
    now += 1_000;
    expect(await store.claimWindow('w', 60_000)).toEqual({ ok: true });
    await cache.close();
  });
});

describe('small rules', () => {
  it('recovery codes are distinct, shown as XXXXX-XXXXX, and match however they are typed', () => {
    const codes = generateRecoveryCodes(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const [code = ''] = codes;
    expect(hashRecoveryCode(code.toLowerCase().replace('-', ' '))).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code)).not.toContain(code);
  });

  it('stores recovery codes keyed: not the SHA-256 of the code, other under another key, the same under the same', () => {
    const code = 'ABCDE-FGHST';
    const key = new Uint8Array(32).fill(1);
    const stored = createRecoveryCodeHasher(key).hash(code);
    expect(stored).toMatch(/^k1:[0-9a-f]{64}$/);
    for (const plain of ['ABCDEFGHST', code, 'svc-recovery:ABCDEFGHST'])
      expect(stored.slice(3)).not.toBe(sha256Hex(plain));
    expect(createRecoveryCodeHasher(Uint8Array.from(key)).hash(code.toLowerCase())).toBe(stored);
    expect(createRecoveryCodeHasher(new Uint8Array(32).fill(2)).hash(code)).not.toBe(stored);
    // The form of earlier releases is only recognised.
    const legacy = sha256Hex('svc-recovery:ABCDEFGHST');
    const wrapped = createRecoveryCodeHasher(key).wrapLegacy(legacy);
    expect(wrapped).toMatch(/^k0:[0-9a-f]{64}$/);
    expect(wrapped).not.toBe(`k0:${legacy}`);
    expect(createRecoveryCodeHasher(new Uint8Array(32).fill(2)).wrapLegacy(legacy)).not.toBe(wrapped);
    expect(createRecoveryCodeHasher(key).candidates(code)).toEqual({ keyed: stored, wrapped, legacy });
    // Only the unkeyed form is rewrapped: never a keyed or rewrapped value, nor other text.
    for (const other of [stored, wrapped ?? '', legacy.toUpperCase(), `${legacy}0`, ''])
      expect(createRecoveryCodeHasher(key).wrapLegacy(other)).toBeUndefined();
    expect(legacyRecoveryCodeHash('abcde fghst')).toBe(sha256Hex('svc-recovery:ABCDEFGHST'));
  });

  it('folds only ASCII whitespace, dashes and ASCII case in recovery codes', () => {
    const shown = 'ABCDE-FGHST';
    expect(hashRecoveryCode(' abcde - fghst\t\r\n')).toBe(hashRecoveryCode(shown));
    // Non-ASCII letters whose upper case is ASCII, and spaces outside ASCII, make other codes.
    for (const typed of [
      'ABCDE-FGHſT',
      'abcde-fghﬆ',
      'ABCDE\u00a0FGHST',
      'ABCDE\u3000FGHST',
      'ABCDE\u2009FGHST',
    ]) {
      expect({ typed, same: hashRecoveryCode(typed) === hashRecoveryCode(shown) }).toEqual({
        typed,
        same: false,
      });
    }
  });

  it('reads typed codes without ASCII whitespace only', () => {
    expect(withoutAsciiWhitespace(' 123 456\t\r\n\f')).toBe('123456');
    for (const space of ['\u00a0', '\u2009', '\u202f', '\u3000', '\u000b', '\ufeff']) {
      expect(withoutAsciiWhitespace(`123${space}456`)).toBe(`123${space}456`);
    }
  });

  it('masks phone numbers', () => {
    expect(maskPhone('13800138000')).toBe('138****8000');
    expect(maskPhone('12345')).toBe('1***5');
  });

  it('knows the default high-sensitivity set', () => {
    for (const code of [
      'POST:/api/v1/sys/user',
      'PUT:/api/v1/sys/role/{id}/menus',
      'PUT:/api/v1/sys/config/batch',
      'DELETE:/api/v1/sys/session/{sessionid}',
      'DELETE:/api/v1/sys/recycle/{type}/{id}',
      'POST:/api/v1/sys/mfa/clear',
      'DELETE:/api/v1/sys/menu/{id}',
      'POST:/api/v1/sys/job',
      'DELETE:/api/v1/sys/log/op',
      'DELETE:/api/v1/sys/log/login',
      'DELETE:/api/v1/sys/log/exception',
      'POST:/api/v1/sys/user/import/commit',
    ]) {
      expect(isDefaultHighSensitivity(code), code).toBe(true);
    }
    for (const code of [
      'GET:/api/v1/sys/user/page',
      'POST:/api/v1/sys/recycle/{type}/{id}/restore',
      'GET:/api/v1/sys/log/op/page',
      'POST:/api/v1/sys/user/import/validate',
      'POST:/api/v1/sys/user/import/preview',
      'POST:/api/v1/sys/user/import/error-report',
      'POST:/api/v1/sys/usera',
      'POST:/api/v1/sys/mfa/high-sensitivity',
    ]) {
      expect(isDefaultHighSensitivity(code), code).toBe(false);
    }
  });
});
