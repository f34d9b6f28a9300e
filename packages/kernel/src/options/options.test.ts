import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parseDecimalInteger } from './leaf.js';
import { loadConfiguration } from './load.js';
import { describeSection, OptionsError } from './parse.js';
import {
  parseRuntimeSetting,
  parseRuntimeValue,
  RUNTIME_KEYS,
  type RuntimeKey,
  type RuntimeValues,
  runtimeKeyDef,
  runtimeSeedRows,
} from './runtime-keys.js';
import { type CaptchaType, serviceSchema } from './schema.js';

/** Texts `Number()` reads as a safe integer (or that hide one), none of them plain decimal digits. */
const NOT_DECIMAL_INTEGERS = [
  '1e3',
  '1E3',
  '0x10',
  '0b11',
  '0o7',
  ' 60 ',
  ' 60',
  '60 ',
  '\t60',
  '60\n',
  '\u00a060',
  '60.0',
  '60.',
  '.5e2',
  '1_000',
  '1,000',
  '',
  ' ',
  '+',
  '-',
  '+-1',
  '--1',
  'Infinity',
  '9007199254740992',
  '-9007199254740992',
  '99999999999999999999',
  '\u0666\u0660',
  '６０',
];

function contentRoot(files: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-opt-'));
  for (const [name, value] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

describe('configuration sources and precedence', () => {
  it('gives every key its default with no source at all', () => {
    const cfg = loadConfiguration({ contentRoot: contentRoot(), env: {} });
    expect(cfg.environment.name).toBe('Production');
    expect(cfg.environment.isProduction).toBe(true);
    expect(cfg.environment.url).toBe('http://localhost:5100');
    expect(cfg.service.Database.DbType).toBe('Sqlite');
    expect(cfg.service.Security.LoginLock.MaxFailCount).toBe(5);
    expect(cfg.service.Jwt.Issuer).toBe('Service');
    expect(cfg.service.Security.ApiKey.HeaderName).toBe('X-Api-Key');
    expect(cfg.service.Security.ApiKey.Keys).toEqual([]);
    expect(cfg.service.Samples.Enabled).toBeNull();
  });

  it('layers defaults < appsettings.json < appsettings.{Environment}.json < environment variables', () => {
    const dir = contentRoot({
      'appsettings.json': {
        Service: { Security: { LoginLock: { MaxFailCount: 7, LockMinutes: 20 } }, Jwt: { Issuer: 'file' } },
      },
      'appsettings.Staging.json': { service: { security: { loginlock: { maxfailcount: 9 } } } },
    });
    const cfg = loadConfiguration({
      contentRoot: dir,
      defaults: { Service: { Jwt: { Issuer: 'code', ExpireMinutes: 30 } } },
      env: { ASPNETCORE_ENVIRONMENT: 'Staging', Service__Security__LoginLock__MaxFailCount: '11' },
    });
    expect(cfg.service.Security.LoginLock.MaxFailCount).toBe(11);
    expect(cfg.service.Security.LoginLock.LockMinutes).toBe(20);
    expect(cfg.service.Jwt.Issuer).toBe('file');
    expect(cfg.service.Jwt.ExpireMinutes).toBe(30);
    const withoutEnv = loadConfiguration({ contentRoot: dir, env: { ASPNETCORE_ENVIRONMENT: 'Staging' } });
    expect(withoutEnv.service.Security.LoginLock.MaxFailCount).toBe(9);
    const otherEnv = loadConfiguration({ contentRoot: dir, env: { ASPNETCORE_ENVIRONMENT: 'Development' } });
    expect(otherEnv.service.Security.LoginLock.MaxFailCount).toBe(7);
    expect(otherEnv.environment.isDevelopment).toBe(true);
  });

  it('matches keys and enum values case-insensitively', () => {
    const cfg = loadConfiguration({
      contentRoot: contentRoot(),
      env: { SERVICE__DATABASE__DBTYPE: 'postgresql', service__cache__provider: 'REDIS' },
    });
    expect(cfg.service.Database.DbType).toBe('PostgreSQL');
    expect(cfg.service.Cache.Provider).toBe('Redis');
  });

  it('reads arrays from index segments and from JSON arrays, merging by index', () => {
    const dir = contentRoot({
      'appsettings.json': {
        Service: { Security: { ApiKey: { Keys: [{ Name: 'a', Key: 'file-key', UserId: 3 }] } } },
      },
    });
    const cfg = loadConfiguration({
      contentRoot: dir,
      env: {
        Service__Security__ApiKey__Keys__0__Key: 'env-key',
        Service__Security__ApiKey__Keys__1__Name: 'b',
        Service__Security__ApiKey__Keys__1__Key: 'second',
        Service__Api__DisabledModules__0: 'Meta',
      },
    });
    expect(cfg.service.Security.ApiKey.Keys).toEqual([
      { Name: 'a', Key: 'env-key', UserId: 3 },
      { Name: 'b', Key: 'second', UserId: 0 },
    ]);
    expect(cfg.service.Api.DisabledModules).toEqual(['Meta']);
  });

  it('stops with a message naming every bad key and its expected form', () => {
    const run = () =>
      loadConfiguration({
        contentRoot: contentRoot(),
        env: {
          Service__Database__DbType: 'Oracle',
          Service__Security__LoginLock__LockMinutes: 'ten',
          Service__DemoMode: 'maybe',
        },
      });
    expect(run).toThrow(OptionsError);
    try {
      run();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain(
        'Service:Database:DbType: expected Sqlite | MySql | PostgreSQL | SqlServer, got "Oracle"',
      );
      expect(message).toContain('Service:Security:LoginLock:LockMinutes: expected integer');
      expect(message).toContain('Service:DemoMode: expected true | false');
    }
  });

  it('takes an integer option only as plain decimal digits with an optional sign', () => {
    const lockMinutes = (value: string) =>
      loadConfiguration({
        contentRoot: contentRoot(),
        env: { Service__Security__LoginLock__LockMinutes: value },
      }).service.Security.LoginLock.LockMinutes;
    expect(lockMinutes('15')).toBe(15);
    expect(lockMinutes('+15')).toBe(15);
    for (const bad of NOT_DECIMAL_INTEGERS) {
      expect(() => lockMinutes(bad), JSON.stringify(bad)).toThrow(
        'Service:Security:LoginLock:LockMinutes: expected integer',
      );
    }
    // A JSON number from appsettings is an integer as it stands.
    const fromJson = loadConfiguration({
      contentRoot: contentRoot({
        'appsettings.json': { Service: { Security: { LoginLock: { LockMinutes: 7 } } } },
      }),
      env: {},
    });
    expect(fromJson.service.Security.LoginLock.LockMinutes).toBe(7);
  });

  it('names a malformed appsettings file', () => {
    const dir = contentRoot({ 'appsettings.json': '{ "Service": ' });
    expect(() => loadConfiguration({ contentRoot: dir, env: {} })).toThrow(
      /appsettings\.json: not valid JSON/,
    );
  });

  it('warns about unknown keys instead of ignoring them silently', () => {
    const cfg = loadConfiguration({
      contentRoot: contentRoot(),
      env: { Service__Databse__DbType: 'Sqlite' },
    });
    expect(cfg.warnings).toContain('Service:Databse is not a known key and was ignored.');
  });

  it('keeps every log row by default and takes Service:Logging:RetentionDays from 0 to 36500', () => {
    const days = (env: Record<string, string>) =>
      loadConfiguration({ contentRoot: contentRoot(), env }).service.Logging.RetentionDays;
    expect(days({})).toBe(0);
    expect(days({ Service__Logging__RetentionDays: '90' })).toBe(90);
    expect(days({ Service__Logging__RetentionDays: '36500' })).toBe(36_500);
    for (const bad of ['-1', '36501', 'forever', '1.5'])
      expect(() => days({ Service__Logging__RetentionDays: bad }), bad).toThrow(
        'Service:Logging:RetentionDays: expected integer 0..36500',
      );
  });

  it('takes content root, listen address and environment from the process variables', () => {
    const dir = contentRoot();
    const cfg = loadConfiguration({
      env: { ASPNETCORE_CONTENTROOT: dir, PORT: '8080', ASPNETCORE_ENVIRONMENT: 'Development' },
    });
    expect(cfg.environment.contentRoot).toBe(dir);
    expect(cfg.environment.url).toBe('http://0.0.0.0:8080');
    expect(
      loadConfiguration({ env: { ASPNETCORE_URLS: 'http://127.0.0.1:5200;http://[::1]:5200' } }).environment
        .url,
    ).toBe('http://127.0.0.1:5200');
  });

  it('documents every key with its environment-variable form', () => {
    const rows = describeSection(serviceSchema, 'Service');
    expect(rows.find((r) => r.key === 'Service:Security:LoginLock:MaxFailCount')).toMatchObject({
      envVar: 'Service__Security__LoginLock__MaxFailCount',
      defaultValue: '5',
    });
    expect(rows.length).toBeGreaterThan(60);
  });
});

describe('runtime keys', () => {
  it('seed rows carry the options in effect', () => {
    const cfg = loadConfiguration({
      contentRoot: contentRoot(),
      env: { Service__Security__LoginLock__MaxFailCount: '3' },
    });
    const rows = runtimeSeedRows(cfg.service);
    expect(rows.find((r) => r.key === 'sys.security.loginLock.maxFailCount')?.value).toBe('3');
    expect(rows.find((r) => r.key === 'sys.security.password.minLength')?.value).toBe('8');
    expect(rows).toHaveLength(RUNTIME_KEYS.length);
  });
  it('parses stored text by type and rejects what would break login', () => {
    const lock = runtimeKeyDef('sys.security.loginLock.lockMinutes')!;
    expect(parseRuntimeValue(lock, '15')).toBe(15);
    expect(parseRuntimeValue(lock, '0')).toBeUndefined();
    expect(parseRuntimeValue(lock, 'abc')).toBeUndefined();
    expect(parseRuntimeValue(runtimeKeyDef('sys.security.captcha.enabled')!, 'TRUE')).toBe(true);
    expect(parseRuntimeValue(runtimeKeyDef('sys.security.captcha.type')!, 'MATH')).toBe('math');
    expect(parseRuntimeValue(runtimeKeyDef('sys.security.captcha.type')!, 'image')).toBeUndefined();
  });
  it('derives the value type and parser of every key from the one declaration, refusing a bad value', () => {
    expectTypeOf<keyof RuntimeValues>().toEqualTypeOf<RuntimeKey>();
    expectTypeOf<RuntimeValues['sys.security.loginLock.lockMinutes']>().toEqualTypeOf<number>();
    expectTypeOf<RuntimeValues['sys.security.captcha.enabled']>().toEqualTypeOf<boolean>();
    expectTypeOf<RuntimeValues['sys.security.captcha.type']>().toEqualTypeOf<CaptchaType>();
    expectTypeOf<RuntimeValues['sys.site.title']>().toEqualTypeOf<string>();
    expect(parseRuntimeSetting('sys.security.loginLock.lockMinutes', '15')).toBe(15);
    expect(parseRuntimeSetting('sys.security.loginLock.lockMinutes', '0')).toBeUndefined();
    expect(parseRuntimeSetting('sys.security.loginLock.lockMinutes', '1.5')).toBeUndefined();
    expect(parseRuntimeSetting('sys.security.captcha.enabled', 'maybe')).toBeUndefined();
    expect(parseRuntimeSetting('sys.security.captcha.type', 'audio')).toBeUndefined();
    expect(parseRuntimeSetting('sys.security.captcha.type', 'MATH')).toBe('math');
    expect(parseRuntimeSetting('sys.site.logoUrl', 'javascript:alert(1)')).toBeUndefined();
    expect(parseRuntimeSetting('sys.site.title', undefined)).toBeUndefined();
    expect(() => parseRuntimeSetting('sys.nope' as RuntimeKey, '1')).toThrow(RangeError);
  });
  it('reads an int key only from plain decimal digits with an optional sign, whitespace refused', () => {
    const maxFail = runtimeKeyDef('sys.security.loginLock.maxFailCount')!;
    expect(parseRuntimeValue(maxFail, '60')).toBe(60);
    expect(parseRuntimeValue(maxFail, '+60')).toBe(60);
    expect(parseRuntimeValue(maxFail, '-1')).toBe(-1);
    expect(parseRuntimeValue(maxFail, '007')).toBe(7);
    for (const bad of NOT_DECIMAL_INTEGERS)
      expect(parseRuntimeValue(maxFail, bad), JSON.stringify(bad)).toBeUndefined();
    // A config row of type int that is no runtime key has no bounds but the same form.
    const free = { key: 'app.x', name: 'x', valueType: 'int', fallback: () => 0 } as const;
    expect(parseRuntimeValue(free, '9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseRuntimeValue(free, '-9007199254740991')).toBe(Number.MIN_SAFE_INTEGER);
    for (const bad of NOT_DECIMAL_INTEGERS)
      expect(parseRuntimeValue(free, bad), JSON.stringify(bad)).toBeUndefined();
    expect(Object.is(parseDecimalInteger('-0'), 0)).toBe(true);
  });

  it('serves only a logo address that runs nothing (a stored script URL reads as the fallback)', () => {
    const logo = runtimeKeyDef('sys.site.logoUrl')!;
    for (const good of [
      '',
      '/static/logo.png',
      'https://cdn.example.com/logo.svg?v=2',
      'http://intranet.example/logo.png',
      'data:image/png;base64,iVBORw0KGgo=',
    ])
      expect(parseRuntimeValue(logo, good), good).toBe(good);
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      '\u0001javascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/svg+xml;base64,PHN2Zz4=',
      '//evil.example/logo.png',
      '/\\evil.example/logo.png',
      'file:///etc/passwd',
      'https://',
      'logo.png',
    ])
      expect(parseRuntimeValue(logo, bad), JSON.stringify(bad)).toBeUndefined();
    // Text keys without a form take any text.
    expect(parseRuntimeValue(runtimeKeyDef('sys.site.footer')!, 'javascript:x')).toBe('javascript:x');
  });
});
