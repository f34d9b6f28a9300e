/**
 * Examples for the contract, made from the schemas themselves: every JSON request body and every envelope
 * response gets one, so a reader (and the API reference's "try it") sees a plausible payload, and a linter can
 * check that each example validates against its schema. Hand-written `example`s in a schema win.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

const SAMPLE_STRINGS: Record<string, string> = {
  'date-time': '2026-01-01T08:00:00.000Z',
  date: '2026-01-01',
  email: 'user@example.com',
  uri: 'https://example.com/',
  uuid: '0192f0c4-8d7e-7a3b-9c1d-2e3f4a5b6c7d',
};

/** Resolves `#/components/schemas/X` references against the document's components. */
export type SchemaResolver = (ref: string) => Schema | undefined;

/** Candidates tried, in order, against a `pattern` the plain sample does not match. */
const PATTERN_CANDIDATES = ['+8613800000000', '13800000000', 'example', 'abc', 'a1', 'A1b2C3d4', '1', 'x'];

function sampleString(schema: Schema): string {
  const format = typeof schema.format === 'string' ? SAMPLE_STRINGS[schema.format] : undefined;
  let text = format ?? 'string';
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    if (!pattern.test(text)) text = PATTERN_CANDIDATES.find((c) => pattern.test(c)) ?? text;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  while (text.length < min) text += 'x';
  if (text.length > max) text = text.slice(0, max);
  return text;
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  let value = 1;
  if (min !== undefined && value < min) value = min;
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

/** A value that satisfies `schema` (depth-limited for recursive trees such as menus). */
export function exampleOf(schema: unknown, resolve: SchemaResolver, depth = 0): Json {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Schema;
  if ('example' in s) return s.example as Json;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0] as Json;
  if ('const' in s) return s.const as Json;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as Json;
  if (typeof s.$ref === 'string') {
    // The envelope code: 0 = success.
    if (s.$ref.endsWith('/ErrorCode')) return 0;
    return exampleOf(resolve(s.$ref), resolve, depth + 1);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) {
      const chosen = options.find((o) => (o as Schema)?.type !== 'null') ?? options[0];
      return exampleOf(chosen, resolve, depth + 1);
    }
  }
  if (Array.isArray(s.allOf)) {
    const merged: Record<string, Json> = {};
    for (const part of s.allOf) {
      const value = exampleOf(part, resolve, depth + 1);
      if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(merged, value);
    }
    return merged;
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {};
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      for (const [name, property] of Object.entries(properties)) {
        out[name] = exampleOf(property, resolve, depth + 1);
      }
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY;
      const count = Math.min(Math.max(min, depth > 4 ? 0 : 1), max); // recursive trees stop early
      return Array.from({ length: count }, () => exampleOf(s.items, resolve, depth + 1));
    }
    case 'string':
      return sampleString(s);
    case 'integer':
      return sampleNumber(s, true);
    case 'number':
      return sampleNumber(s, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return Object.keys(s).length === 0 ? 'value' : null;
  }
}
