import { describe, expect, it } from 'vitest';
import { issueCsrf, verifyCsrf } from './csrf.js';
import { deriveSubkey } from './subkeys.js';

const JWT_KEY = new Uint8Array(Buffer.from('j'.repeat(64)));
const KEY = deriveSubkey(JWT_KEY, 'csrf');
const SID = '0190a6b2-7c1e-7d3a-8f00-000000000001';
const OTHER_SID = '0190a6b2-7c1e-7d3a-8f00-000000000002';

describe('CSRF values', () => {
  it('verify when header and cookie carry the value issued for this session', () => {
    const value = issueCsrf(SID, KEY);
    expect(value).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(verifyCsrf({ header: value, cookie: value, sessionId: SID, key: KEY })).toBe(true);
  });

  it('are unique per issue', () => {
    expect(issueCsrf(SID, KEY)).not.toBe(issueCsrf(SID, KEY));
  });

  it('fail without the header, or with a header that differs from the cookie', () => {
    const value = issueCsrf(SID, KEY);
    expect(verifyCsrf({ header: undefined, cookie: value, sessionId: SID, key: KEY })).toBe(false);
    expect(verifyCsrf({ header: '', cookie: value, sessionId: SID, key: KEY })).toBe(false);
    expect(verifyCsrf({ header: issueCsrf(SID, KEY), cookie: value, sessionId: SID, key: KEY })).toBe(false);
    expect(verifyCsrf({ header: value, cookie: undefined, sessionId: SID, key: KEY })).toBe(false);
  });

  it('fail for a matching pair issued to another session (a planted or lifted cookie)', () => {
    const theirs = issueCsrf(OTHER_SID, KEY);
    expect(verifyCsrf({ header: theirs, cookie: theirs, sessionId: SID, key: KEY })).toBe(false);
  });

  it('fail for a matching pair the attacker made up or edited', () => {
    const madeUp = `${'A'.repeat(22)}.${'B'.repeat(43)}`;
    expect(verifyCsrf({ header: madeUp, cookie: madeUp, sessionId: SID, key: KEY })).toBe(false);
    const value = issueCsrf(SID, KEY);
    const edited = `${value.slice(0, 21)}${value[21] === 'A' ? 'B' : 'A'}${value.slice(22)}`;
    expect(verifyCsrf({ header: edited, cookie: edited, sessionId: SID, key: KEY })).toBe(false);
    for (const junk of ['x', '.', 'a.b.c', `${value}.x`]) {
      expect(verifyCsrf({ header: junk, cookie: junk, sessionId: SID, key: KEY })).toBe(false);
    }
  });

  it('fail under another key, including the underived signing key', () => {
    const value = issueCsrf(SID, KEY);
    expect(verifyCsrf({ header: value, cookie: value, sessionId: SID, key: JWT_KEY })).toBe(false);
  });

  it('refuse a short key', () => {
    expect(() => issueCsrf(SID, new Uint8Array(16))).toThrow(RangeError);
  });
});

describe('deriveSubkey', () => {
  it('gives a distinct 32-byte key per purpose, stable for one master', () => {
    const a = deriveSubkey(JWT_KEY, 'csrf');
    expect(a).toHaveLength(32);
    expect(Buffer.from(a).equals(Buffer.from(deriveSubkey(JWT_KEY, 'csrf')))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(deriveSubkey(JWT_KEY, 'file-link')))).toBe(false);
    expect(Buffer.from(a).equals(Buffer.from(JWT_KEY.slice(0, 32)))).toBe(false);
  });
});
