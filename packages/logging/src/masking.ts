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

/** True when a logged parameter's name is masked: a sensitive fragment or one of the exact names. */
export function isSensitiveParamName(name: string): boolean {
  return EXACT.has(name.toLowerCase()) || isSensitiveName(name);
}

/** A string holding a JSON object or array, masked and re-serialised; the string itself when nothing is masked. */
function maskEmbeddedJson(text: string, seen: WeakSet<object>): string {
  const start = text.trimStart()[0];
  if ((start !== '{' && start !== '[') || text.length > MAX_EMBEDDED_JSON_CHARS) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (parsed === null || typeof parsed !== 'object') return text;
  const masked = JSON.stringify(maskSensitive(parsed, seen));
  return masked === JSON.stringify(parsed) ? text : masked;
}

/** A deep copy with sensitive values replaced; cycles and unserializable values become placeholders. */
export function maskSensitive(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string') return maskEmbeddedJson(value, seen);
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'function' || typeof value === 'symbol') return UNSERIALIZABLE;
    return value;
  }
  if (seen.has(value)) return UNSERIALIZABLE;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => maskSensitive(v, seen));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = isSensitiveParamName(k) ? MASK : maskSensitive(v, seen);
  return out;
}
