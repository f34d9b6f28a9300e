/**
 * Runtime configuration keys (`sys.*`): rows of the config table, read through the config cache.
 * Precedence (contract §1): the config row, else the deploy-time option named as fallback, else the built-in
 * default. The first-start seed writes one row per key with the value in effect at that moment.
 */
import { parseDecimalInteger } from './leaf.js';
import type { CaptchaType, ServiceOptions } from './schema.js';
import { CAPTCHA_TYPES } from './schema.js';

export type RuntimeValueType = 'int' | 'bool' | 'string' | 'enum';
export type RuntimeValue = number | boolean | string;

export interface RuntimeKeyDef<T extends RuntimeValue = RuntimeValue, K extends string = string> {
  key: K;
  name: string;
  valueType: RuntimeValueType;
  /** Allowed values of an `enum` key. */
  values?: readonly string[];
  /** Inclusive bounds of an `int` key. */
  min?: number;
  max?: number;
  /** The value in effect without a row: the deploy-time option, else the built-in default. */
  fallback: (options: ServiceOptions) => T;
  /** Safe to show anonymously (`GET /api/v1/sys/config/site`). */
  public?: boolean;
  /**
   * The form a `string` key's text must have, and how a refusal describes it. A stored text outside it reads
   * as the fallback, so a row written before the rule (or straight into the table) is never served.
   */
  form?: { accepts: (text: string) => boolean; description: string };
}

/**
 * An image address a page may put in `src` or `href` without running anything: empty, a path on this origin
 * (`/…`, not `//host`), an `http(s)` URL, or a raster `data:image` (no SVG, which can carry script when opened).
 * Never `javascript:`, `vbscript:` or another scheme; no control characters or spaces, which browsers strip
 * before they read the scheme.
 */
export function isSafeImageUrl(text: string): boolean {
  if (text === '') return true;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // Control characters, spaces, DEL and the backslash (which browsers read as a slash).
    if (unit <= 0x20 || unit === 0x7f || unit === 0x5c) return false;
  }
  if (text.startsWith('/')) return !text.startsWith('//');
  if (/^data:image\/(png|jpeg|gif|webp|avif);base64,[a-z0-9+/]+=*$/i.test(text)) return true;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function int<const K extends string>(
  key: K,
  name: string,
  fallback: (o: ServiceOptions) => number,
  min = 0,
  max = 1_000_000_000,
): RuntimeKeyDef<number, K> {
  return { key, name, valueType: 'int', min, max, fallback };
}

function bool<const K extends string>(
  key: K,
  name: string,
  fallback: (o: ServiceOptions) => boolean,
  isPublic = false,
): RuntimeKeyDef<boolean, K> {
  return { key, name, valueType: 'bool', fallback, ...(isPublic ? { public: true } : {}) };
}

function text<const K extends string>(
  key: K,
  name: string,
  fallback: (o: ServiceOptions) => string,
  isPublic = false,
  form?: RuntimeKeyDef['form'],
): RuntimeKeyDef<string, K> {
  return {
    key,
    name,
    valueType: 'string',
    fallback,
    ...(isPublic ? { public: true } : {}),
    ...(form ? { form } : {}),
  };
}

/** Every runtime key the service reads. */
export const RUNTIME_KEYS = [
  int('sys.security.session.accessMinutes', 'Access-token lifetime (minutes)', (o) => o.Jwt.ExpireMinutes, 1),
  int(
    'sys.security.session.refreshMinutes',
    'Refresh-token lifetime (minutes)',
    (o) => o.Jwt.RefreshExpireMinutes,
    1,
  ),
  int(
    'sys.security.loginLock.maxFailCount',
    'Wrong passwords before lock (<= 0 disables)',
    (o) => o.Security.LoginLock.MaxFailCount,
    -1,
  ),
  int(
    'sys.security.loginLock.lockMinutes',
    'Lock duration (minutes)',
    (o) => o.Security.LoginLock.LockMinutes,
    1,
  ),
  bool('sys.security.captcha.enabled', 'Captcha on login', (o) => o.Security.Captcha.Enabled, true),
  {
    key: 'sys.security.captcha.type' as const,
    name: 'Captcha type',
    valueType: 'enum',
    values: CAPTCHA_TYPES,
    fallback: (o: ServiceOptions): CaptchaType => o.Security.Captcha.Type,
    public: true,
  } satisfies RuntimeKeyDef<string, 'sys.security.captcha.type'>,
  bool('sys.security.mfa.enabled', 'SMS second factor', (o) => o.Security.SmsOtp.MfaEnabled),
  bool('sys.security.smsLogin.enabled', 'SMS login', (o) => o.Security.SmsOtp.LoginEnabled, true),
  bool('sys.security.totp.enabled', 'TOTP authenticator', (o) => o.Security.Totp.Enabled),
  // Module Passkey's switch (its deploy floor `Service:Security:Passkey:Enabled` is the module's own option);
  // public, so the login page knows whether to offer "Sign in with a passkey".
  bool('sys.security.passkey.enabled', 'Passkeys (WebAuthn)', () => false, true),
  bool('sys.security.totp.requireForSuperAdmin', 'Super admin must use a second factor', () => false),
  int('sys.security.password.minLength', 'Password minimum length', () => 8, 1, 128),
  bool('sys.security.password.requireUpper', 'Password needs an upper-case letter', () => true),
  bool('sys.security.password.requireLower', 'Password needs a lower-case letter', () => true),
  bool('sys.security.password.requireDigit', 'Password needs a digit', () => true),
  bool('sys.security.password.requireSpecial', 'Password needs a special character', () => false),
  int('sys.security.password.expireDays', 'Password expiry in days (0 = never)', () => 0),
  bool('sys.security.password.forceChangeOnFirstLogin', 'Created accounts must change password', () => false),
  int(
    'sys.security.password.historyCount',
    'Recent passwords that may not be reused (0 = none)',
    () => 0,
    0,
    100,
  ),
  bool('sys.security.rateLimit.enabled', 'Rate limiting', (o) => o.Security.RateLimit.Enabled),
  int(
    'sys.security.rateLimit.windowSeconds',
    'Rate-limit window (seconds)',
    (o) => o.Security.RateLimit.WindowSeconds,
    1,
  ),
  int(
    'sys.security.rateLimit.permitPerWindow',
    'Requests per IP per window',
    (o) => o.Security.RateLimit.PermitPerWindow,
    1,
  ),
  int(
    'sys.security.rateLimit.authPermitPerWindow',
    'Requests per IP per window on /api/v1/auth/*',
    (o) => o.Security.RateLimit.AuthPermitPerWindow,
    1,
  ),
  text('sys.site.title', 'Site title (login page, browser tab)', (o) => o.Name, true),
  // Served to anyone (`/sys/config/site`) and put in pages' `src`/`href`: an address that runs nothing.
  text('sys.site.logoUrl', 'Site logo URL', () => '', true, {
    accepts: isSafeImageUrl,
    description: 'empty, a path on this site (/…), an http(s) URL or a raster data:image',
  }),
  text('sys.site.footer', 'Site footer text', () => '', true),
] as const;

/** Checks every entry against the definition shape without widening the key literals. */
const DEFINITIONS: readonly RuntimeKeyDef[] = RUNTIME_KEYS;

/** A key of {@link RUNTIME_KEYS}. */
export type RuntimeKey = (typeof RUNTIME_KEYS)[number]['key'];

/**
 * The value type of every runtime key, derived from {@link RUNTIME_KEYS}: what the key's fallback answers
 * (`number` for an `int`, `boolean` for a `bool`, `string` for a text, the member union for an `enum`).
 */
export type RuntimeValues = {
  [D in (typeof RUNTIME_KEYS)[number] as D['key']]: ReturnType<D['fallback']>;
};

const BY_KEY = new Map<string, RuntimeKeyDef>(DEFINITIONS.map((d) => [d.key, d]));

/** The definition of a runtime key, if it is one. */
export function runtimeKeyDef(key: string): RuntimeKeyDef | undefined {
  return BY_KEY.get(key);
}

/**
 * The value of `key` in the stored `text`, typed by its declaration ({@link parseRuntimeValue} of its
 * definition): undefined when the text is missing or not a valid value, so the caller falls back.
 */
export function parseRuntimeSetting<K extends RuntimeKey>(
  key: K,
  text: string | null | undefined,
): RuntimeValues[K] | undefined {
  const def = BY_KEY.get(key);
  if (def === undefined) throw new RangeError(`${key} is not a runtime key.`);
  return parseRuntimeValue(def, text) as RuntimeValues[K] | undefined;
}

/** Renders a typed value as the text stored in the config row. */
export function formatRuntimeValue(value: RuntimeValue): string {
  return String(value);
}

/**
 * Parses stored text by the key's type. Returns undefined when the text is not a valid value, so that a
 * broken row falls back instead of breaking login. An `int` is a plain decimal integer with an optional sign
 * and no surrounding whitespace, within the key's bounds.
 */
export function parseRuntimeValue(
  def: RuntimeKeyDef,
  text: string | null | undefined,
): RuntimeValue | undefined {
  if (text === null || text === undefined) return undefined;
  const s = text.trim();
  switch (def.valueType) {
    case 'int': {
      // The text as stored, not trimmed: ` 60 `, `1e3` and `0x10` are refused (parseDecimalInteger).
      const n = parseDecimalInteger(text);
      if (n === undefined) return undefined;
      if ((def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) return undefined;
      return n;
    }
    case 'bool': {
      const l = s.toLowerCase();
      return l === 'true' || l === '1' ? true : l === 'false' || l === '0' ? false : undefined;
    }
    case 'enum':
      return def.values?.find((v) => v.toLowerCase() === s.toLowerCase());
    default:
      return def.form === undefined || def.form.accepts(text) ? text : undefined;
  }
}

/** Seed rows: one per runtime key with the value in effect now. */
export function runtimeSeedRows(options: ServiceOptions) {
  return RUNTIME_KEYS.map((def) => ({
    key: def.key,
    name: def.name,
    valueType: def.valueType,
    value: formatRuntimeValue(def.fallback(options)),
  }));
}
