/**
 * Masking by property name (spec "Log masking"): a case-insensitive substring match against the sensitive
 * names, or an exact case-insensitive match against the names of contract §10 (one-time codes, signatures,
 * keys), replaces the value with `***`, recursing into nested objects and arrays, and into JSON held inside a
 * string (`{"data":"{\"password\":\"x\"}"}`). Masking is by name only: `permissionCode` stays readable
 * while `code` is masked.
 */

/** Property-name fragments whose values are never logged. */
export const SENSITIVE_NAMES = [
  'password',
  'pwd',
  'secret',
  'token',
  'credential',
  'header',
  'authorization',
  'apikey',
  'api_key',
  'cookie',
] as const;

/**
 * Names masked when they match exactly, case-insensitively (contract §10): too short or too common to match as
 * fragments (`code` would hide `permissionCode`), yet they carry one-time codes, signatures and key material.
 */
export const SENSITIVE_EXACT_NAMES = [
  'code',
  'otp',
  'totpCode',
  'smsCode',
  'captchaCode',
  'recoveryCode',
  'seed',
  'sig',
  'signature',
  'privateKey',
  'passphrase',
  'currentPassword',
  'newPassword',
] as const;

const EXACT = new Set<string>(SENSITIVE_EXACT_NAMES.map((n) => n.toLowerCase()));

/** Strings longer than this are not parsed as embedded JSON (they are capped in the op log anyway). */
const MAX_EMBEDDED_JSON_CHARS = 64 * 1024;

export const MASK = '***';
export const UNSERIALIZABLE = '<unserializable>';

/** True when a property name contains one of the sensitive fragments (also used for SQL column names). */
export function isSensitiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE_NAMES.some((s) => lower.includes(s));
}

/** Verdicts by property name: a request's names repeat from request to request (bounded, cleared when full). */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4096;

/** True when a logged parameter's name is masked: a sensitive fragment or one of the exact names. */
export function isSensitiveParamName(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    verdict = EXACT.has(name.toLowerCase()) || isSensitiveName(name);
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
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

/** Every sensitive fragment and exact name, lower-cased, less those that hold another one (`totpcode`: `code`). */
const MASKABLE_WORDS = ((words: string[]) =>
  words.filter((w) => !words.some((o) => o !== w && w.includes(o))))([
  ...new Set([...SENSITIVE_NAMES, ...SENSITIVE_EXACT_NAMES].map((n) => n.toLowerCase())),
]);

/**
 * Any lower-cased text in which masking could find a name to mask: every sensitive fragment and exact name as a
 * substring. Masking compares `toLowerCase()` of a name, and lower-casing a whole text lower-cases each of its
 * names in place (the Kelvin sign becomes `k` in both), so a name masking would hide is found in the lower-cased
 * text. It over-matches (`code` inside `barcode`), which only sends a text the long way. A case-sensitive pattern
 * over the lower-cased text costs half of a case-insensitive Unicode one over the text (`iu`: ~350 against
 * ~180 ns for a short body on Node 20).
 */
const MASKABLE = new RegExp(
  MASKABLE_WORDS.map((n) => n.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
);

/**
 * True when masking a JSON text's value cannot change anything: the text has no backslash (so every property
 * name, at any depth and inside JSON held in a string, is spelled out literally) and no sensitive name occurs in
 * it anywhere. Such a text needs no parse-and-copy to be logged.
 */
export function nothingToMask(text: string): boolean {
  return !text.includes('\\') && !MASKABLE.test(text.toLowerCase()) && !holdsUrlPassword(text);
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

/**
 * True when masking leaves this record as it is (path parameters, a query): every value a string that cannot hold
 * JSON, no name masked. Such a record is serialised without the copy {@link maskSensitive} makes.
 */
export function plainStrings(record: Record<string, unknown>): boolean {
  for (const key in record) {
    const value = record[key];
    if (typeof value !== 'string' || opensJson(value) || isSensitiveParamName(key) || holdsUrlPassword(value))
      return false;
  }
  return true;
}

/** A string holding a JSON object or array, masked and re-serialised; the string itself when nothing is masked. */
function maskEmbeddedJson(text: string, path: Set<object>): string {
  if (text.length > MAX_EMBEDDED_JSON_CHARS || !opensJson(text)) return text;
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

/**
 * A deep copy with sensitive values replaced; cycles and unserializable values become placeholders. An object
 * met again on the way down from the root is a cycle; one reached twice along different paths is copied twice,
 * as `JSON.stringify` would write it.
 */
export function maskSensitive(value: unknown): unknown {
  return maskAlong(value, new Set());
}

/** {@link maskSensitive} with the objects above `value` (its path from the root; a set, so depth costs nothing). */
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
