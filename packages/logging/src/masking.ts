/**
 * Masking by property name (spec "Log masking"): a case-insensitive substring match against the sensitive
 * names replaces the value with `***`, recursing into nested objects and arrays. Masking is by name only.
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

export const MASK = '***';
export const UNSERIALIZABLE = '<unserializable>';

/** True when a property name contains one of the sensitive fragments. */
export function isSensitiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE_NAMES.some((s) => lower.includes(s));
}

/** A deep copy with sensitive values replaced; cycles and unserializable values become placeholders. */
export function maskSensitive(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'function' || typeof value === 'symbol') return UNSERIALIZABLE;
    return value;
  }
  if (seen.has(value)) return UNSERIALIZABLE;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => maskSensitive(v, seen));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSensitiveName(k) ? MASK : maskSensitive(v, seen);
  return out;
}
