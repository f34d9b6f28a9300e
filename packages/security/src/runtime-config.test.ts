import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfiguration, type ServiceOptions } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { createRuntimeSettings, type RuntimeConfigStore, type RuntimeSettingKey } from './runtime-config.js';

function optionsFrom(env: Record<string, string> = {}): ServiceOptions {
  return loadConfiguration({ contentRoot: mkdtempSync(join(tmpdir(), 'svc-rt-')), env }).service;
}

function setup(rows: Record<string, string> = {}, env: Record<string, string> = {}) {
  const table = new Map(Object.entries(rows));
  const store: RuntimeConfigStore = { getRaw: async (key) => table.get(key) };
  const invalid: [string, string][] = [];
  const settings = createRuntimeSettings({
    store,
    options: optionsFrom(env),
    onInvalid: (key, raw) => invalid.push([key, raw]),
  });
  return { table, settings, invalid };
}

describe('runtime settings', () => {
  it('answers the built-in defaults with no rows and no options', async () => {
    const { settings } = setup();
    expect(await settings.passwordPolicy()).toEqual({
      minLength: 8,
      requireUpper: true,
      requireLower: true,
      requireDigit: true,
      requireSpecial: false,
      expireDays: 0,
      forceChangeOnFirstLogin: false,
      historyCount: 0,
    });
    expect(await settings.loginLock()).toEqual({ maxFailCount: 5, lockMinutes: 10 });
    expect(await settings.sessionLifetimes()).toEqual({ accessMinutes: 120, refreshMinutes: 10080 });
    expect(await settings.rateLimit()).toEqual({
      enabled: true,
      windowSeconds: 60,
      permitPerWindow: 300,
      authPermitPerWindow: 20,
      keyPermitPerWindow: 600,
    });
    expect(await settings.get('sys.security.captcha.type')).toBe('char');
  });

  it('falls back to the deploy-time option without a row', async () => {
    const { settings } = setup(
      {},
      { Service__Jwt__ExpireMinutes: '15', Service__Security__LoginLock__MaxFailCount: '3' },
    );
    expect((await settings.sessionLifetimes()).accessMinutes).toBe(15);
    expect((await settings.loginLock()).maxFailCount).toBe(3);
  });

  it('lets the row win over the option', async () => {
    const { settings } = setup(
      {
        'sys.security.session.accessMinutes': '30',
        'sys.security.loginLock.maxFailCount': '0',
        'sys.security.password.requireSpecial': 'TRUE',
        'sys.security.captcha.type': 'MATH',
      },
      { Service__Jwt__ExpireMinutes: '15' },
    );
    expect((await settings.sessionLifetimes()).accessMinutes).toBe(30);
    expect((await settings.loginLock()).maxFailCount).toBe(0);
    expect((await settings.passwordPolicy()).requireSpecial).toBe(true);
    expect(await settings.get('sys.security.captcha.type')).toBe('math');
  });

  it('reads the store on every call, so a changed row applies at once', async () => {
    const { settings, table } = setup({ 'sys.security.password.minLength': '10' });
    expect((await settings.passwordPolicy()).minLength).toBe(10);
    table.set('sys.security.password.minLength', '12');
    expect((await settings.passwordPolicy()).minLength).toBe(12);
  });

  it('falls back for an invalid row without throwing, and reports it', async () => {
    const { settings, invalid } = setup(
      {
        'sys.security.session.accessMinutes': 'soon',
        'sys.security.password.minLength': '0',
        'sys.security.password.requireUpper': 'yes please',
        'sys.security.captcha.type': 'audio',
        'sys.security.rateLimit.windowSeconds': '1.5',
      },
      { Service__Jwt__ExpireMinutes: '45' },
    );
    expect((await settings.sessionLifetimes()).accessMinutes).toBe(45);
    const policy = await settings.passwordPolicy();
    expect(policy.minLength).toBe(8);
    expect(policy.requireUpper).toBe(true);
    expect(await settings.get('sys.security.captcha.type')).toBe('char');
    expect((await settings.rateLimit()).windowSeconds).toBe(60);
    expect(invalid.map(([k]) => k).sort()).toEqual([
      'sys.security.captcha.type',
      'sys.security.password.minLength',
      'sys.security.password.requireUpper',
      'sys.security.rateLimit.windowSeconds',
      'sys.security.session.accessMinutes',
    ]);
  });

  it('applies the deploy hard switch: RateLimit:Enabled=false wins over a row saying true', async () => {
    const { settings } = setup(
      { 'sys.security.rateLimit.enabled': 'true' },
      { Service__Security__RateLimit__Enabled: 'false' },
    );
    expect((await settings.rateLimit()).enabled).toBe(false);
  });

  it('lets a row switch rate limiting off while the deploy switch is on', async () => {
    const { settings } = setup({ 'sys.security.rateLimit.enabled': 'false' });
    expect((await settings.rateLimit()).enabled).toBe(false);
  });

  it('takes the key permit from the options only', async () => {
    const { settings } = setup({}, { Service__Security__RateLimit__KeyPermitPerWindow: '0' });
    expect((await settings.rateLimit()).keyPermitPerWindow).toBe(0);
  });

  it('passes a store failure on instead of guessing', async () => {
    const settings = createRuntimeSettings({
      store: { getRaw: async () => Promise.reject(new Error('db down')) },
      options: optionsFrom(),
    });
    await expect(settings.loginLock()).rejects.toThrow('db down');
  });

  it('refuses a key that is not a runtime key', async () => {
    const { settings } = setup();
    await expect(settings.get('sys.nope' as RuntimeSettingKey)).rejects.toThrow(RangeError);
  });

  it('reuses the rate-limit settings while the store version holds, and re-reads after it changes', async () => {
    const table = new Map([['sys.security.rateLimit.permitPerWindow', '7']]);
    let version: number | undefined = 1;
    let reads = 0;
    const store: RuntimeConfigStore = {
      getRaw: async (key) => {
        reads++;
        return table.get(key);
      },
      version: () => version,
    };
    const settings = createRuntimeSettings({ store, options: optionsFrom() });
    expect((await settings.rateLimit()).permitPerWindow).toBe(7);
    const afterFirst = reads;
    expect((await settings.rateLimit()).permitPerWindow).toBe(7);
    expect(reads).toBe(afterFirst);
    table.set('sys.security.rateLimit.permitPerWindow', '9');
    version = undefined;
    expect((await settings.rateLimit()).permitPerWindow).toBe(9);
    version = 2;
    expect((await settings.rateLimit()).permitPerWindow).toBe(9);
    table.set('sys.security.rateLimit.permitPerWindow', '11');
    version = 3;
    expect((await settings.rateLimit()).permitPerWindow).toBe(11);
  });

  it('answers the rate-limit settings now only while the version of their last read holds', async () => {
    const table = new Map([['sys.security.rateLimit.permitPerWindow', '7']]);
    let version: number | undefined = 1;
    const store: RuntimeConfigStore = { getRaw: async (key) => table.get(key), version: () => version };
    const settings = createRuntimeSettings({ store, options: optionsFrom() });
    // Nothing read yet.
    expect(settings.rateLimitNow?.()).toBeUndefined();
    await settings.rateLimit();
    expect(settings.rateLimitNow?.()?.permitPerWindow).toBe(7);
    table.set('sys.security.rateLimit.permitPerWindow', '9');
    version = 2;
    // A changed version: not now; the next read takes the new value, and now answers it.
    expect(settings.rateLimitNow?.()).toBeUndefined();
    expect((await settings.rateLimit()).permitPerWindow).toBe(9);
    expect(settings.rateLimitNow?.()?.permitPerWindow).toBe(9);
    // A store that cannot tell (an expired snapshot) is never answered now.
    version = undefined;
    expect(settings.rateLimitNow?.()).toBeUndefined();
  });
});
