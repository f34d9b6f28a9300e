/**
 * The building blocks of the options schema: typed leaves with a default, a one-line description and a parser
 * that accepts the forms configuration sources deliver (JSON values from appsettings, strings from the
 * environment). A parser returns the value or a message saying what form was expected.
 */

export type ParseResult<T> = { ok: true; value: T } | { ok: false; expected: string };

export interface Leaf<T> {
  readonly kind: 'leaf';
  readonly defaultValue: T;
  readonly description: string;
  /** Human-readable expected form, used in errors and in the generated configuration reference. */
  readonly form: string;
  parse(raw: unknown): ParseResult<T>;
}

export interface Section {
  readonly kind: 'section';
  readonly description?: string;
  readonly children: Readonly<Record<string, Node>>;
}

export interface ListOf<T> {
  readonly kind: 'list';
  readonly description: string;
  readonly item: Section;
  readonly __item?: T;
}

export type Node = Leaf<unknown> | Section | ListOf<unknown>;

/** The TypeScript type of the parsed value of a schema node. */
export type Infer<N> =
  N extends Leaf<infer T>
    ? T
    : N extends ListOf<unknown>
      ? Infer<N['item']>[]
      : N extends Section
        ? { -readonly [K in keyof N['children']]: Infer<N['children'][K]> }
        : never;

const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const bad = (expected: string): ParseResult<never> => ({ ok: false, expected });

/**
 * A plain decimal integer: ASCII digits with an optional sign and nothing else, within the safe-integer range;
 * undefined otherwise. `Number()` alone also took `1e3`, `0x10`, `0b11`, `60.0`, `Infinity` and text inside
 * spaces, so a configured value could mean something other than what it shows. Surrounding whitespace is
 * refused, not trimmed: one form for every source, and the refusal names the text as it came.
 * @example parseDecimalInteger('-1') // -1; parseDecimalInteger(' 60 ') // undefined
 */
export function parseDecimalInteger(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) return undefined;
  return n === 0 ? 0 : n; // never -0
}

/** A whole number, optionally bounded: a JSON integer, or a string in the form of {@link parseDecimalInteger}. */
export function int(
  defaultValue: number,
  description: string,
  range: { min?: number; max?: number } = {},
): Leaf<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  const form =
    range.min !== undefined && range.max !== undefined
      ? `integer ${min}..${max}`
      : range.min !== undefined
        ? `integer >= ${min}`
        : 'integer';
  return {
    kind: 'leaf',
    defaultValue,
    description,
    form,
    parse(raw) {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDecimalInteger(raw) : undefined;
      return n !== undefined && Number.isSafeInteger(n) && n >= min && n <= max ? ok(n) : bad(form);
    },
  };
}

/** `true`/`false` (any case), also `1`/`0` from the environment. */
export function bool<D extends boolean | null>(defaultValue: D, description: string): Leaf<boolean | D> {
  return {
    kind: 'leaf',
    defaultValue,
    description,
    form: 'true | false',
    parse(raw) {
      if (typeof raw === 'boolean') return ok(raw);
      if (raw === null) return ok(defaultValue);
      const s =
        typeof raw === 'string' ? raw.trim().toLowerCase() : typeof raw === 'number' ? String(raw) : '';
      if (s === 'true' || s === '1') return ok(true);
      if (s === 'false' || s === '0') return ok(false);
      return bad('true | false');
    },
  };
}

/** Free text; an empty string counts as "not set" when the default is null. */
export function str<D extends string | null>(defaultValue: D, description: string): Leaf<string | D> {
  return {
    kind: 'leaf',
    defaultValue,
    description,
    form: 'string',
    parse(raw) {
      if (raw === null) return ok(defaultValue);
      if (typeof raw === 'number' || typeof raw === 'boolean') return ok(String(raw));
      if (typeof raw !== 'string') return bad('string');
      return ok(raw === '' && defaultValue === null ? defaultValue : raw);
    },
  };
}

/** One of a closed set of names, matched case-insensitively and returned in canonical spelling. */
export function oneOf<const V extends string>(
  values: readonly V[],
  defaultValue: V,
  description: string,
): Leaf<V> {
  const form = values.join(' | ');
  return {
    kind: 'leaf',
    defaultValue,
    description,
    form,
    parse(raw) {
      const s = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      const hit = values.find((v) => v.toLowerCase() === s);
      return hit ? ok(hit) : bad(form);
    },
  };
}

/** A list of strings: a JSON array, index-keyed entries (`__0`, `__1`), or one comma-separated string. */
export function strings(defaultValue: string[], description: string): Leaf<string[]> {
  const form = 'list of strings';
  return {
    kind: 'leaf',
    defaultValue,
    description,
    form,
    parse(raw) {
      const arr = asArray(raw) ?? (typeof raw === 'string' ? raw.split(',') : undefined);
      if (!arr || arr.some((v) => typeof v !== 'string' && typeof v !== 'number')) return bad(form);
      return ok(arr.map((v) => String(v).trim()).filter((v) => v !== ''));
    },
  };
}

/** A map of string to string (e.g. `Logging:LogLevel`). Keys keep their spelling. */
export function dictionary(
  defaultValue: Record<string, string>,
  description: string,
): Leaf<Record<string, string>> {
  const form = 'object of strings';
  return {
    kind: 'leaf',
    defaultValue,
    description,
    form,
    parse(raw) {
      if (!isRecord(raw)) return bad(form);
      const out: Record<string, string> = { ...defaultValue };
      for (const [k, v] of Object.entries(raw)) {
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return bad(form);
        out[k] = String(v);
      }
      return ok(out);
    },
  };
}

export const section = <C extends Record<string, Node>>(children: C, description?: string) =>
  ({ kind: 'section', children, ...(description ? { description } : {}) }) as const satisfies Section;

export const listOf = <S extends Section>(item: S, description: string) =>
  ({ kind: 'list', item, description }) as const satisfies ListOf<unknown>;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Arrays arrive as JSON arrays or as objects keyed `0`, `1`, … (environment variables); both become arrays. */
export function asArray(raw: unknown): unknown[] | undefined {
  if (Array.isArray(raw)) return raw;
  if (!isRecord(raw)) return undefined;
  const keys = Object.keys(raw);
  if (!keys.every((k) => /^\d+$/.test(k))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => raw[k]);
}
