import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccessTokenClaims } from './claims.js';
import { createVerifiedTokenCache } from './token-cache.js';
import { createAccessTokens } from './tokens.js';

const KEY = new Uint8Array(Buffer.from('k'.repeat(48)));
const ISSUER = 'Service';
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const T0S = T0 / 1000;
const CLAIMS: AccessTokenClaims = { sub: '7', sid: 'sess-1', sadm: false, org: 3, unique_name: 'alice' };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Builds a JWT by hand, so that each forgery is exactly what an attacker could send. */
function forge(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  opts: { hash?: 'sha256' | 'sha384' | 'sha512' | null; key?: Uint8Array } = {},
): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const hash = opts.hash === undefined ? 'sha256' : opts.hash;
  if (hash === null) return `${input}.`;
  return `${input}.${createHmac(hash, opts.key ?? KEY)
    .update(input)
    .digest('base64url')}`;
}

const validPayload = (over: Record<string, unknown> = {}) => ({
  ...CLAIMS,
  iss: ISSUER,
  iat: T0S,
  exp: T0S + 600,
  ...over,
});

function setup(at = T0) {
  const clock = { at };
  const tokens = createAccessTokens({ key: KEY, issuer: ISSUER, now: () => clock.at, cache: false });
  return { clock, tokens };
}

describe('access tokens: issue and verify', () => {
  it('round-trips the claims with their exact names and sets iss, iat and exp', async () => {
    const { tokens } = setup();
    const { token, expiresAt } = await tokens.issue(CLAIMS, 120);
    expect(expiresAt.getTime()).toBe(T0 + 120 * 60_000);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(Object.keys(payload).sort()).toEqual([
      'exp',
      'iat',
      'iss',
      'org',
      'sadm',
      'sid',
      'sub',
      'unique_name',
    ]);
    expect(await tokens.verify(token)).toEqual({ ...CLAIMS, iss: ISSUER, iat: T0S, exp: T0S + 7200 });
  });

  it('keeps a null org and a super-admin flag', async () => {
    const { tokens } = setup();
    const { token } = await tokens.issue({ ...CLAIMS, sadm: true, org: null }, 5);
    expect(await tokens.verify(token)).toMatchObject({ sadm: true, org: null });
  });

  it('accepts a correct hand-made token (so the refusals below are about the forgery alone)', async () => {
    const { tokens } = setup();
    expect(await tokens.verify(forge({ alg: 'HS256' }, validPayload()))).toMatchObject(CLAIMS);
  });

  it('tolerates 30 s of clock skew on exp, and no more', async () => {
    const { clock, tokens } = setup();
    const { token } = await tokens.issue(CLAIMS, 1);
    clock.at = T0 + 60_000 + 29_000;
    expect(await tokens.verify(token)).not.toBeNull();
    clock.at = T0 + 60_000 + 30_000;
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses invalid claims passed to issue and a non-positive lifetime', async () => {
    const { tokens } = setup();
    await expect(tokens.issue({ ...CLAIMS, org: '3' } as never, 5)).rejects.toThrow(TypeError);
    await expect(tokens.issue(CLAIMS, 0)).rejects.toThrow(RangeError);
  });

  it('refuses a short key and an empty issuer when created', () => {
    expect(() => createAccessTokens({ key: new Uint8Array(31), issuer: ISSUER })).toThrow(/32 bytes/);
    expect(() => createAccessTokens({ key: KEY, issuer: '' })).toThrow(/issuer/);
  });
});

describe('access tokens: forgeries are refused', () => {
  const cases: [string, () => string][] = [
    ['alg none without signature', () => forge({ alg: 'none' }, validPayload(), { hash: null })],
    ['alg none with a valid HS256 signature', () => forge({ alg: 'none' }, validPayload())],
    ['HS384 with the same key', () => forge({ alg: 'HS384' }, validPayload(), { hash: 'sha384' })],
    ['HS512 with the same key', () => forge({ alg: 'HS512' }, validPayload(), { hash: 'sha512' })],
    [
      'HS256 header over an HS512 signature',
      () => forge({ alg: 'HS256' }, validPayload(), { hash: 'sha512' }),
    ],
    ['RS256 header', () => forge({ alg: 'RS256' }, validPayload())],
    ['another key', () => forge({ alg: 'HS256' }, validPayload(), { key: new Uint8Array(48) })],
    ['wrong issuer', () => forge({ alg: 'HS256' }, validPayload({ iss: 'Other' }))],
    ['expired beyond the skew', () => forge({ alg: 'HS256' }, validPayload({ exp: T0S - 31 }))],
    ['issued in the future beyond the skew', () => forge({ alg: 'HS256' }, validPayload({ iat: T0S + 31 }))],
    ['sadm as a string', () => forge({ alg: 'HS256' }, validPayload({ sadm: 'true' }))],
    ['org as a string', () => forge({ alg: 'HS256' }, validPayload({ org: '3' }))],
    ['org as a fraction', () => forge({ alg: 'HS256' }, validPayload({ org: 1.5 }))],
    ['sub as a number', () => forge({ alg: 'HS256' }, validPayload({ sub: 7 }))],
    ['empty sid', () => forge({ alg: 'HS256' }, validPayload({ sid: '' }))],
    ['exp as a string', () => forge({ alg: 'HS256' }, validPayload({ exp: String(T0S + 600) }))],
    ['crit header it does not understand', () => forge({ alg: 'HS256', crit: ['x'], x: 1 }, validPayload())],
  ];
  for (const claim of ['sub', 'sid', 'sadm', 'org', 'unique_name', 'iss', 'iat', 'exp']) {
    cases.push([
      `missing ${claim}`,
      () => {
        const payload: Record<string, unknown> = validPayload();
        delete payload[claim];
        return forge({ alg: 'HS256' }, payload);
      },
    ]);
  }

  for (const [name, build] of cases) {
    it(name, async () => {
      const { tokens } = setup();
      expect(await tokens.verify(build())).toBeNull();
    });
  }

  it('an edited payload under the original signature', async () => {
    const { tokens } = setup();
    const { token } = await tokens.issue(CLAIMS, 60);
    const [h, , s] = token.split('.');
    const edited = `${h}.${b64(validPayload({ sadm: true }))}.${s}`;
    expect(await tokens.verify(edited)).toBeNull();
  });

  it('any other spelling of a valid token (padding, whitespace, spare bits)', async () => {
    const { tokens } = setup();
    const { token } = await tokens.issue(CLAIMS, 60);
    expect(await tokens.verify(token)).not.toBeNull();
    // The 43rd character of a 32-byte signature carries 4 bits; flipping a spare bit keeps the same bytes.
    const last = token.at(-1) ?? 'A';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spare = alphabet.charAt(alphabet.indexOf(last) ^ 1);
    for (const variant of [`${token}=`, `${token}\n`, ` ${token}`, `${token.slice(0, -1)}${spare}`]) {
      expect(await tokens.verify(variant)).toBeNull();
    }
  });

  it('malformed input of every kind, without throwing', async () => {
    const { tokens } = setup();
    for (const bad of ['', 'a', 'a.b', 'a.b.c', 'a.b.c.d', '..', `${'x'.repeat(5000)}.y.z`, 42 as never]) {
      expect(await tokens.verify(bad)).toBeNull();
    }
  });
});

describe('access tokens: verified-token cache', () => {
  it('answers a token verified before without checking it again', async () => {
    const clock = { at: T0 };
    const cache = createVerifiedTokenCache({ now: () => clock.at });
    const signer = createAccessTokens({ key: KEY, issuer: ISSUER, now: () => clock.at, cache: false });
    const { token } = await signer.issue(CLAIMS, 10);
    const first = createAccessTokens({ key: KEY, issuer: ISSUER, now: () => clock.at, cache });
    expect(await first.verify(token)).not.toBeNull();
    // A verifier with another key refuses the token unless the shared cache answers first.
    const otherKey = new Uint8Array(Buffer.from('z'.repeat(48)));
    const uncached = createAccessTokens({ key: otherKey, issuer: ISSUER, now: () => clock.at, cache: false });
    const cached = createAccessTokens({ key: otherKey, issuer: ISSUER, now: () => clock.at, cache });
    expect(await uncached.verify(token)).toBeNull();
    expect(await cached.verify(token)).toMatchObject(CLAIMS);
  });

  it('pre-fills the cache at issue and drops entries after exp plus the skew', async () => {
    const clock = { at: T0 };
    const cache = createVerifiedTokenCache({ now: () => clock.at });
    const tokens = createAccessTokens({ key: KEY, issuer: ISSUER, now: () => clock.at, cache });
    const { token } = await tokens.issue(CLAIMS, 1);
    expect(cache.get(token)).toMatchObject(CLAIMS);
    clock.at = T0 + 60_000 + 29_999;
    expect(cache.get(token)).toBeDefined();
    clock.at = T0 + 60_000 + 30_000;
    expect(cache.get(token)).toBeUndefined();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('keeps at most max entries, evicting the least recently used', () => {
    const cache = createVerifiedTokenCache({ max: 2, now: () => T0 });
    const claims = { ...CLAIMS, iss: ISSUER, iat: T0S, exp: T0S + 60 };
    cache.set('a', claims);
    cache.set('b', claims);
    cache.get('a');
    cache.set('c', claims);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
  });

  it('keeps a token in use however many others pass through, and evicts those not used again', () => {
    // Hits move a token back only now and then (once a quarter of the capacity went in after it): a token used
    // on every request must still never reach the eviction end.
    const cache = createVerifiedTokenCache({ max: 8, now: () => T0 });
    const claims = { ...CLAIMS, iss: ISSUER, iat: T0S, exp: T0S + 60 };
    cache.set('hot', claims);
    cache.set('cold', claims);
    for (let i = 0; i < 500; i++) {
      cache.set(`t${i}`, claims);
      expect(cache.get('hot')).toBeDefined();
    }
    expect(cache.size).toBe(8);
    expect(cache.get('cold')).toBeUndefined();
    expect(cache.get('t499')).toBeDefined();
    expect(cache.get('t490')).toBeUndefined();
  });

  it('does not store a token that is already past exp plus the skew', () => {
    const cache = createVerifiedTokenCache({ now: () => T0 });
    cache.set('old', { ...CLAIMS, iss: ISSUER, iat: T0S - 100, exp: T0S - 30 });
    expect(cache.size).toBe(0);
  });

  it('hands out frozen claims, so one caller cannot alter another caller’s view', async () => {
    const { tokens } = setup();
    const claims = await tokens.verify(forge({ alg: 'HS256' }, validPayload()));
    expect(Object.isFrozen(claims)).toBe(true);
  });
});
