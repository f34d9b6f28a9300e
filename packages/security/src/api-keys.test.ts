import { describe, expect, it } from 'vitest';
import {
  ApiKeyConfigError,
  type ApiKeyEntry,
  checkApiKeyConfig,
  configApiKeySource,
  createApiKeyValidator,
} from './api-keys.js';

const K1 = 'a'.repeat(43);
const K2 = 'b'.repeat(43);

describe('configured API keys', () => {
  it('validates a known key to its principal, bound or unbound', () => {
    const validator = createApiKeyValidator(
      configApiKeySource([
        { Name: 'billing', Key: K1, UserId: 42 },
        { Name: 'monitor', Key: K2, UserId: 0 },
      ]),
    );
    expect(validator.validate(K1)).toEqual({ name: 'billing', userId: 42 });
    expect(validator.validate(K2)).toEqual({ name: 'monitor', userId: null });
  });

  it('answers null for a missing, empty, unknown or near-miss key', () => {
    const validator = createApiKeyValidator(configApiKeySource([{ Name: 'billing', Key: K1, UserId: 1 }]));
    for (const bad of [undefined, '', K2, K1.slice(0, -1), `${K1}a`, K1.toUpperCase()]) {
      expect(validator.validate(bad)).toBeNull();
    }
  });

  it('ignores entries with an empty key', () => {
    const source = configApiKeySource([
      { Name: 'placeholder', Key: '', UserId: 0 },
      { Name: '', Key: '', UserId: 0 },
      { Name: 'real', Key: K1, UserId: 0 },
    ]);
    expect(source.list().map((e) => e.name)).toEqual(['real']);
    expect(createApiKeyValidator(source).validate('')).toBeNull();
  });

  it('refuses short keys and missing names at start-up, naming the key path', () => {
    expect(() => configApiKeySource([{ Name: 'x', Key: 'short', UserId: 0 }])).toThrow(ApiKeyConfigError);
    expect(
      checkApiKeyConfig([
        { Name: 'x', Key: K1, UserId: 0 },
        { Name: 'y', Key: 'z'.repeat(31), UserId: 0 },
      ]),
    ).toEqual(['Service:Security:ApiKey:Keys:1:Key is 31 bytes; at least 32 random bytes are required.']);
    expect(checkApiKeyConfig([{ Name: '  ', Key: K1, UserId: 0 }])).toEqual([
      'Service:Security:ApiKey:Keys:0:Name is empty; every key needs a name.',
    ]);
  });

  it('refuses repeated names or keys and keys a header cannot carry', () => {
    const problems = checkApiKeyConfig([
      { Name: 'a', Key: K1, UserId: 0 },
      { Name: 'A', Key: K2, UserId: 0 },
      { Name: 'c', Key: K1, UserId: 0 },
      { Name: 'd', Key: `${K2} `, UserId: 0 },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^Service:Security:ApiKey:Keys:1:Name repeats .*Keys:0:Name/),
      expect.stringMatching(/^Service:Security:ApiKey:Keys:2:Key repeats .*Keys:0:Key/),
      expect.stringMatching(/^Service:Security:ApiKey:Keys:3:Key holds spaces/),
    ]);
  });

  it('never puts a key into an error message', () => {
    const problems = checkApiKeyConfig([
      { Name: 'a', Key: K1, UserId: 0 },
      { Name: 'b', Key: K1, UserId: 0 },
      { Name: '', Key: 'secret-but-short', UserId: 0 },
    ]);
    expect(problems.join('\n')).not.toMatch(new RegExp(`${K1}|secret-but-short`));
  });
});

describe('API key validator over a custom source', () => {
  it('compares against every key: no early exit after a match', () => {
    const seen: string[] = [];
    const entries: ApiKeyEntry[] = [
      { name: 'first', key: K1, userId: null },
      { name: 'second', key: K2, userId: 7 },
    ];
    const tracked = entries.map((e) => ({
      ...e,
      get key() {
        seen.push(e.name);
        return e.key;
      },
    }));
    const validator = createApiKeyValidator({ list: () => tracked });
    expect(validator.validate(K1)).toEqual({ name: 'first', userId: null });
    expect(seen).toContain('second');
  });

  it('reads the source on every call, so replaced keys apply at once', () => {
    let entries: ApiKeyEntry[] = [{ name: 'old', key: K1, userId: null }];
    const validator = createApiKeyValidator({ list: () => entries });
    expect(validator.validate(K1)?.name).toBe('old');
    entries = [{ name: 'new', key: K2, userId: null }];
    expect(validator.validate(K1)).toBeNull();
    expect(validator.validate(K2)?.name).toBe('new');
  });
});
