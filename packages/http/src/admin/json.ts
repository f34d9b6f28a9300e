/**
 * Service results carry `Date`s; JSON answers carry ISO-8601 strings with `Z` (contract §2). `jsonify` converts
 * recursively and its type says so, so route schemas (strings) and service types (dates) stay checked.
 */

/** `T` with every `Date` replaced by its ISO string. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/** Converts dates to ISO strings, recursively through arrays and plain objects. */
export function jsonify<T>(value: T): Jsonified<T> {
  return convert(value) as Jsonified<T>;
}

function convert(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(convert);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = convert(v);
    return out;
  }
  return value;
}
