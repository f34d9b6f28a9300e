/**
 * Typed reading of the runtime `sys.*` keys (contract §1): the config row when it holds a valid value, else
 * the key's fallback (the deploy-time option, else the built-in default). A broken row falls back instead of
 * breaking login. Deploy-time hard switches the spec names as such (`Service:Security:RateLimit:Enabled=false`)
 * still win over the row.
 */
import {
  parseRuntimeSetting,
  type RuntimeKey,
  type RuntimeValues,
  runtimeKeyDef,
  type ServiceOptions,
} from '@svc/kernel';
import type { LoginLockSettings } from './lockout.js';
import type { PasswordPolicy } from './password-policy.js';
import type { RateLimitSettings } from './rate-limit.js';

/**
 * Where the rows come from: the data layer's config repository behind the config cache. Answers the stored
 * text of a key, or undefined when there is no row. May reject when the store cannot be reached; that error
 * is passed on, not mistaken for a missing row.
 */
export interface RuntimeConfigStore {
  getRaw(key: string): Promise<string | undefined>;
  /**
   * Equal numbers mean the store serves the same values (undefined: unknown). When given, grouped readers that
   * run on every request (`rateLimit`) reuse their last result while the version holds.
   */
  version?(): number | undefined;
}

/** The value type of every runtime key the service reads: derived from the kernel's `RUNTIME_KEYS`. */
export type { RuntimeValues };

/** A runtime key with a known value type (a key of the kernel's `RUNTIME_KEYS`). */
export type RuntimeSettingKey = RuntimeKey;

/** Access and refresh lifetimes in effect. */
export interface SessionLifetimes {
  /** `sys.security.session.accessMinutes`, else `Service:Jwt:ExpireMinutes`. @default 120 */
  accessMinutes: number;
  /** `sys.security.session.refreshMinutes`, else `Service:Jwt:RefreshExpireMinutes`. @default 10080 */
  refreshMinutes: number;
}

/** Dependencies of {@link createRuntimeSettings}. */
export interface RuntimeSettingsDeps {
  store: RuntimeConfigStore;
  /** The parsed deploy-time options: fallbacks and hard switches. */
  options: ServiceOptions;
  /**
   * Told about a row whose text is not a valid value for its key (the fallback is used instead).
   * @default ignore
   */
  onInvalid?: (key: RuntimeSettingKey, raw: string) => void;
}

/** Typed readers over the runtime keys; every call reads through the store, so changes apply at once. */
export interface RuntimeSettings {
  get<K extends RuntimeSettingKey>(key: K): Promise<RuntimeValues[K]>;
  passwordPolicy(): Promise<PasswordPolicy>;
  loginLock(): Promise<LoginLockSettings>;
  /** With the deploy hard switch applied: `Service:Security:RateLimit:Enabled=false` wins over the row. */
  rateLimit(): Promise<RateLimitSettings>;
  /**
   * The settings {@link RuntimeSettings.rateLimit} would answer, now, when the store's version shows its last
   * answer still holds; undefined otherwise (call `rateLimit`). Lets the request path decide without a promise.
   */
  rateLimitNow?(): RateLimitSettings | undefined;
  sessionLifetimes(): Promise<SessionLifetimes>;
}

/**
 * Creates the runtime settings reader.
 * @example
 * const runtime = createRuntimeSettings({ store: configRepository, options });
 * const lock = createLoginLock({ cache, settings: () => runtime.loginLock() });
 */
export function createRuntimeSettings(deps: RuntimeSettingsDeps): RuntimeSettings {
  const { store, options, onInvalid } = deps;

  async function get<K extends RuntimeSettingKey>(key: K): Promise<RuntimeValues[K]> {
    const def = runtimeKeyDef(key);
    if (def === undefined) throw new RangeError(`${key} is not a runtime key.`);
    const raw = await store.getRaw(key);
    const parsed = parseRuntimeSetting(key, raw);
    if (parsed === undefined && raw !== undefined) onInvalid?.(key, raw);
    return parsed ?? (def.fallback(options) as RuntimeValues[K]);
  }

  const rateLimit = memoByVersion(store, async (): Promise<RateLimitSettings> => {
    const deploy = options.Security.RateLimit;
    const [enabled, windowSeconds, permitPerWindow, authPermitPerWindow] = await Promise.all([
      get('sys.security.rateLimit.enabled'),
      get('sys.security.rateLimit.windowSeconds'),
      get('sys.security.rateLimit.permitPerWindow'),
      get('sys.security.rateLimit.authPermitPerWindow'),
    ]);
    return {
      enabled: deploy.Enabled && enabled,
      windowSeconds,
      permitPerWindow,
      authPermitPerWindow,
      keyPermitPerWindow: deploy.KeyPermitPerWindow,
    };
  });

  return {
    get,

    async passwordPolicy() {
      const p = 'sys.security.password.';
      const [
        minLength,
        requireUpper,
        requireLower,
        requireDigit,
        requireSpecial,
        expireDays,
        forceChangeOnFirstLogin,
        historyCount,
      ] = await Promise.all([
        get(`${p}minLength`),
        get(`${p}requireUpper`),
        get(`${p}requireLower`),
        get(`${p}requireDigit`),
        get(`${p}requireSpecial`),
        get(`${p}expireDays`),
        get(`${p}forceChangeOnFirstLogin`),
        get(`${p}historyCount`),
      ]);
      return {
        minLength,
        requireUpper,
        requireLower,
        requireDigit,
        requireSpecial,
        expireDays,
        forceChangeOnFirstLogin,
        historyCount,
      };
    },

    async loginLock() {
      const [maxFailCount, lockMinutes] = await Promise.all([
        get('sys.security.loginLock.maxFailCount'),
        get('sys.security.loginLock.lockMinutes'),
      ]);
      return { maxFailCount, lockMinutes };
    },

    rateLimit: rateLimit.read,
    rateLimitNow: rateLimit.now,

    async sessionLifetimes() {
      const [accessMinutes, refreshMinutes] = await Promise.all([
        get('sys.security.session.accessMinutes'),
        get('sys.security.session.refreshMinutes'),
      ]);
      return { accessMinutes, refreshMinutes };
    },
  };
}

/**
 * Reuses the last result of `read` while the store reports the same version it had before that read began (a
 * change during the read leaves nothing cached). Without a version every call reads. `now` answers the kept
 * result while it holds, undefined when a read is needed.
 */
function memoByVersion<T>(
  store: RuntimeConfigStore,
  read: () => Promise<T>,
): { read: () => Promise<T>; now: () => T | undefined } {
  let cached: { version: number; value: T } | undefined;
  const now = (): T | undefined => {
    const version = store.version?.();
    return version !== undefined && cached?.version === version ? cached.value : undefined;
  };
  return {
    now,
    read: async () => {
      const before = store.version?.();
      if (before !== undefined && cached?.version === before) return cached.value;
      const value = await read();
      if (before !== undefined && store.version?.() === before) cached = { version: before, value };
      return value;
    },
  };
}
