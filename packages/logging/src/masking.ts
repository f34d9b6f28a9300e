/**
 * Masking by property name (spec "Log masking", contract §10 and §11): a case-insensitive substring match against
 * the sensitive fragments (and a deployment's own, such as its API-key header name), or an exact
 * case-insensitive match against the exact names (one-time codes, signatures, keys, login and sign-in handles),
 * each in its camelCase, kebab-case and snake_case spellings, replaces the value with `***`, recursing into
 * nested objects and arrays, and into JSON held inside a string (`{"data":"{\"password\":\"x\"}"}`). Masking
 * is by name only: `permissionCode` stays readable while `code` is masked.
 */

/**
 * Property-name fragments whose values are never logged. Each matches in any case and in each of its spellings:
 * `apiKey` also as `api-key` and `api_key` (so `X-API-KEY`, `Api_Key` and `x-api-key` are masked), see
 * {@link spellings}.
 */
export const SENSITIVE_NAMES = [
  'password',
  'pwd',
  'secret',
  'token',
  'credential',
  'header',
  'authorization',
  'apiKey',
  'cookie',
] as const;

/**
 * Names masked when they match exactly, case-insensitively, in any of their spellings (`captcha_code`,
 * `code-verifier`): too short or too common to match as fragments (`code` would hide `permissionCode`), yet they
 * carry one-time codes, signatures, key material (contract §10) and the handles of half-finished logins and
 * external sign-ins (contract §11): the external-login `ticket` and `pendingLink`, the OAuth `state`, `nonce` and
 * `codeVerifier`, every challenge id the service hands out (a login step's `challengeId`, the TOTP binding's
 * `bindChallengeId`, the callback's `totpChallenge` and `smsChallenge`: each finishes a login with a code), and
 * the captcha's ticket (`captchaId`, sent with its answer `captchaCode`).
 */
export const SENSITIVE_EXACT_NAMES = [
  'code',
  'otp',
  'totpCode',
  'smsCode',
  'captchaCode',
  'captchaId',
  'recoveryCode',
  'seed',
  'sig',
  'signature',
  'privateKey',
  'passphrase',
  'currentPassword',
  'newPassword',
  'ticket',
  'pendingLink',
  'challengeId',
  'bindChallengeId',
  'totpChallenge',
  'smsChallenge',
  'state',
  'codeVerifier',
  'nonce',
  'clientSecret',
  'authorization',
] as const;

/**
 * The lower-case spellings a name is matched in: its words (split at `-`, `_` and a lower-to-upper case step)
 * joined with nothing, with `-` and with `_`. `pendingLink` → `pendinglink`, `pending-link`, `pending_link`;
 * `X-Svc-Auth` → `xsvcauth`, `x-svc-auth`, `x_svc_auth`. Mixed separators (`x-svc_auth`) are not a spelling.
 */
export function spellings(name: string): string[] {
  const words = name
    .split(/[-_]|(?<=[a-z0-9])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w !== '');
  return [...new Set([words.join(''), words.join('-'), words.join('_')])].filter((w) => w !== '');
}

/**
 * Strings longer than this are not parsed as embedded JSON (they are capped in the op log anyway); one that
 * opens as JSON and could hold a sensitive name is masked whole, since the capped text keeps its start.
 */
const MAX_EMBEDDED_JSON_CHARS = 64 * 1024;

export const MASK = '***';
export const UNSERIALIZABLE = '<unserializable>';

const DEFAULT_FRAGMENTS = SENSITIVE_NAMES.flatMap(spellings);

/** True when a property name contains one of the sensitive fragments (also used for SQL column names). */
export function isSensitiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return DEFAULT_FRAGMENTS.some((s) => lower.includes(s));
}

/**
 * True when the text's first character after JSON's white space opens an object or an array: only then can
 * `JSON.parse` answer one (any other leading character, white space to `trimStart` or not, makes it throw).
 */
function opensJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return false;
}

/**
 * The password of a URL's user info (`https://user:password@host`), wherever a logged text holds one: a secret
 * by position, not by name (a job's target, a webhook, a connection string in a body).
 */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'\\]*:)[^\s/?#@"'\\]+@/gi;

/** True when `text` holds a URL with a password in its user info. */
function holdsUrlPassword(text: string): boolean {
  if (!text.includes('://')) return false;
  URL_PASSWORD.lastIndex = 0;
  return URL_PASSWORD.test(text);
}

/** `text` with every URL password replaced by the mask (`https://user:***@host`). */
export function maskUrlPasswords(text: string): string {
  return holdsUrlPassword(text) ? text.replace(URL_PASSWORD, `$1${MASK}@`) : text;
}

/** What a log masks by name: the built-in names, and those a deployment adds. */
export interface MaskingOptions {
  /**
   * More name fragments, matched as the built-in ones (substring, any case, each spelling): the configured
   * API-key header name (`Service:Security:ApiKey:HeaderName`, contract §11), masked even when it holds no
   * built-in fragment. @default []
   */
  fragments?: readonly string[] | undefined;
}

/** The masking rules of one deployment (the built-in names plus its {@link MaskingOptions}). */
export interface Masking {
  /** True when a logged parameter's name is masked: a sensitive fragment or one of the exact names. */
  isSensitiveParamName(name: string): boolean;
  /**
   * A deep copy with sensitive values replaced; cycles and unserializable values become placeholders. An object
   * met again on the way down from the root is a cycle; one reached twice along different paths is copied twice,
   * as `JSON.stringify` would write it.
   */
  maskSensitive(value: unknown): unknown;
  /**
   * True when masking a JSON text's value cannot change anything: the text has no backslash (so every property
   * name, at any depth and inside JSON held in a string, is spelled out literally) and no sensitive name occurs
   * in it anywhere. Such a text needs no parse-and-copy to be logged.
   */
  nothingToMask(text: string): boolean;
  /**
   * True when masking leaves this record as it is (path parameters, a query): every value a string that cannot
   * hold JSON, no name masked. Such a record is serialised without the copy `maskSensitive` makes.
   */
  plainStrings(record: Record<string, unknown>): boolean;
}

/** Verdicts kept by property name: a request's names repeat from request to request (cleared when full). */
const MAX_VERDICTS = 4096;

/**
 * The masking rules with `options`' names added to the built-in ones.
 * @example createMasking({ fragments: [config.service.Security.ApiKey.HeaderName] })
 */
export function createMasking(options: MaskingOptions = {}): Masking {
  const fragments = [...new Set([...DEFAULT_FRAGMENTS, ...(options.fragments ?? []).flatMap(spellings)])];
  const exact = new Set<string>(SENSITIVE_EXACT_NAMES.flatMap(spellings));
  const verdicts = new Map<string, boolean>();

  function isSensitiveParamName(name: string): boolean {
    let verdict = verdicts.get(name);
    if (verdict === undefined) {
      const lower = name.toLowerCase();
      verdict = exact.has(lower) || fragments.some((s) => lower.includes(s));
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(name, verdict);
    }
    return verdict;
  }

  /**
   * Any lower-cased text in which masking could find a name to mask: every spelling of every sensitive fragment
   * and exact name as a substring, less those that hold another one (`totpcode`: `code`). Masking compares
   * `toLowerCase()` of a name, and lower-casing a whole text lower-cases each of its names in place (the Kelvin
   * sign becomes `k` in both), so a name masking would hide is found in the lower-cased text. It over-matches
   * (`code` inside `barcode`), which only sends a text the long way. A case-sensitive pattern over the
   * lower-cased text costs half of a case-insensitive Unicode one over the text (`iu`: ~350 against ~180 ns for
   * a short body on Node 20); the spellings with `-` and `_` add ~50 ns.
   */
  const words = [...new Set([...fragments, ...exact])];
  const maskable = new RegExp(
    words
      .filter((w) => !words.some((o) => o !== w && w.includes(o)))
      .map((n) => n.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('|'),
  );

  function nothingToMask(text: string): boolean {
    return !text.includes('\\') && !maskable.test(text.toLowerCase()) && !holdsUrlPassword(text);
  }

  function plainStrings(record: Record<string, unknown>): boolean {
    for (const key in record) {
      const value = record[key];
      if (
        typeof value !== 'string' ||
        opensJson(value) ||
        isSensitiveParamName(key) ||
        holdsUrlPassword(value)
      )
        return false;
    }
    return true;
  }

  /** A string holding a JSON object or array, masked and re-serialised; the string itself when nothing is masked. */
  function maskEmbeddedJson(text: string, path: Set<object>): string {
    if (!opensJson(text)) return text;
    if (text.length > MAX_EMBEDDED_JSON_CHARS) return nothingToMask(text) ? text : MASK;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return text;
    }
    if (parsed === null || typeof parsed !== 'object') return text;
    const masked = JSON.stringify(maskAlong(parsed, path));
    return masked === JSON.stringify(parsed) ? text : masked;
  }

  /** `maskSensitive` with the objects above `value` (its path from the root; a set, so depth costs nothing). */
  function maskAlong(value: unknown, path: Set<object>): unknown {
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'string') return maskEmbeddedJson(maskUrlPasswords(value), path);
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'function' || typeof value === 'symbol') return UNSERIALIZABLE;
      return value;
    }
    if (path.has(value)) return UNSERIALIZABLE;
    if (value instanceof Date) return value.toISOString();
    path.add(value);
    let out: unknown;
    if (Array.isArray(value)) {
      const items = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) items[i] = maskAlong(value[i], path);
      out = items;
    } else {
      const copy: Record<string, unknown> = {};
      for (const k of Object.keys(value)) {
        copy[k] = isSensitiveParamName(k) ? MASK : maskAlong((value as Record<string, unknown>)[k], path);
      }
      out = copy;
    }
    path.delete(value);
    return out;
  }

  return {
    isSensitiveParamName,
    maskSensitive: (value) => maskAlong(value, new Set()),
    nothingToMask,
    plainStrings,
  };
}

/** The built-in rules, for logs that know no deployment's settings (SQL parameters, a consumer's own use). */
export const DEFAULT_MASKING: Masking = createMasking();

/** {@link Masking.isSensitiveParamName} of the built-in rules. */
export const isSensitiveParamName = (name: string): boolean => DEFAULT_MASKING.isSensitiveParamName(name);
/** {@link Masking.maskSensitive} of the built-in rules. */
export const maskSensitive = (value: unknown): unknown => DEFAULT_MASKING.maskSensitive(value);
/** {@link Masking.nothingToMask} of the built-in rules. */
export const nothingToMask = (text: string): boolean => DEFAULT_MASKING.nothingToMask(text);
/** {@link Masking.plainStrings} of the built-in rules. */
export const plainStrings = (record: Record<string, unknown>): boolean =>
  DEFAULT_MASKING.plainStrings(record);
