/**
 * Query and path parameters shared by every route (contract §3): paging (`current`, `size`, `sortField`,
 * `sortOrder`) plus each route's filters, with parameter names matched case-insensitively. Malformed numbers or
 * booleans answer 48000 naming the parameter; `size` above `Service:Api:MaxPageSize` answers 48001 with
 * `args {size, max}`: the paged query schema refuses it, bounded by its app's ceiling when the route is registered
 * ({@link boundedPageQuery}), and the app's validation hook answers the refusal. Defaults (`current` <= 0 → 1, `size` <= 0 → 20) and the sort-column rule are applied by the
 * data layer (`paginate`), which never turns `sortField` into SQL text.
 */
import { z } from '@hono/zod-openapi';
import type { ErrorArgs } from '@svc/kernel';
import type { ZodError, ZodType } from 'zod';

/** An integer query parameter (kept small enough to be a safe integer). */
export const intParam = z
  .string()
  .regex(/^-?\d{1,15}$/, 'must be an integer')
  .transform(Number);

/** An id query parameter: a positive integer. */
export const idParam = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n > 0, 'must be a positive integer');

/** `{id}` in a path: a positive integer (anything else answers 48000 naming `id`, never reaches a query). */
export const idPath = idParam.openapi({ param: { name: 'id', in: 'path' }, type: 'integer', example: 1 });

/** A boolean query parameter: `true`/`false`/`1`/`0`, any case. */
export const boolParam = z
  .string()
  .regex(/^(true|false|1|0)$/i, 'must be true or false')
  .transform((v) => v.toLowerCase() === 'true' || v === '1');

/** True for a text without NUL: PostgreSQL refuses NUL in text (a 500 otherwise), so every text input answers 48000. */
export const noNul = (v: string): boolean => !v.includes('\u0000');

/** A free-text filter, bounded so a query string cannot carry megabytes into a LIKE. */
export const textParam = z.string().max(100).refine(noNul, 'must not contain NUL');

const pagingShape = {
  current: intParam.optional().openapi({ description: '1-based page (<= 0 → 1).', type: 'integer' }),
  size: intParam.optional().openapi({
    description: 'Page size (default 20, <= 0 → 20, above the maximum → 48001).',
    type: 'integer',
  }),
  sortField: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: 'A column of the row; others are ignored.' }),
  sortOrder: z.string().max(8).optional().openapi({ description: '`asc` or `desc`.' }),
};

/** Renames query keys to the schema's spelling when they differ only in case (`SIZE` → `size`). */
export function canonicalKeys(names: readonly string[]) {
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n] as const));
  return (input: unknown): unknown => {
    if (typeof input !== 'object' || input === null) return input;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const canonical = byLower.get(key.toLowerCase()) ?? key;
      // An exact spelling wins over a differently cased duplicate.
      if (canonical in out && key !== canonical) continue;
      out[canonical] = value;
    }
    return out;
  };
}

/**
 * A query schema, names case-insensitive. Typed as the inner object: the route config accepts only objects and
 * pipes of `unknown`, and a preprocess pipe validates and documents exactly like its object.
 */
export function querySchema<S extends z.ZodRawShape>(shape: S): z.ZodObject<S> {
  return z.preprocess(canonicalKeys(Object.keys(shape)), z.object(shape)) as unknown as z.ZodObject<S>;
}

/** Where a paged query schema keeps the same schema bounded by a ceiling ({@link boundedPageQuery}). */
const BOUNDED = Symbol('bounded page query');

/** The issue parameter that marks a page size above the ceiling; its value is the 48001 `args`. */
const PAGE_SIZE_EXCEEDED = 'pageSizeExceeded';

/**
 * The query schema of a paged route: paging plus `filters`, names case-insensitive. It documents no ceiling and
 * holds none: `registerRoute` validates with {@link boundedPageQuery} of it and the app's `Service:Api:MaxPageSize`.
 * @example request: { query: pageQuerySchema({ account: textParam.optional() }) }
 */
export function pageQuerySchema<S extends z.ZodRawShape>(filters: S) {
  const schema = querySchema({ ...pagingShape, ...filters });
  const bounded = (max: number): ZodType =>
    (schema as ZodType).superRefine(
      (query, ctx) => {
        const size = (query as { size?: number | undefined }).size;
        if (size === undefined || size <= max) return;
        ctx.addIssue({
          code: 'custom',
          path: ['size'],
          message: `must be at most ${max}`,
          params: { [PAGE_SIZE_EXCEEDED]: { size, max } },
        });
      },
      // Only once every parameter is valid: a malformed one answers 48000, as before the handlers checked.
      { when: (payload) => payload.issues.length === 0 },
    );
  Object.defineProperty(schema, BOUNDED, { value: bounded });
  return schema;
}

/**
 * `schema` refusing a `size` above `max` (an issue {@link pageSizeExceeded} reads), when it is a paged query
 * schema ({@link pageQuerySchema}); undefined for any other schema. It validates and documents as `schema` does.
 */
export function boundedPageQuery(schema: unknown, max: number): ZodType | undefined {
  const bounded = (schema as { [BOUNDED]?: (max: number) => ZodType } | undefined)?.[BOUNDED];
  return bounded?.(max);
}

/** The 48001 `args {size, max}` when `error` is a bounded paged query refusing its size; undefined otherwise. */
export function pageSizeExceeded(error: ZodError): ErrorArgs | undefined {
  for (const issue of error.issues) {
    const args = issue.code === 'custom' ? issue.params?.[PAGE_SIZE_EXCEEDED] : undefined;
    if (args !== undefined) return args as ErrorArgs;
  }
  return undefined;
}

/** The page of contract §3 around `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    current: z.number().int(),
    size: z.number().int(),
    total: z.number().int(),
    pages: z.number().int(),
    items: z.array(item),
  });
}

/** Maps the items of a page. */
export function mapPage<A, B>(
  page: { current: number; size: number; total: number; pages: number; items: A[] },
  map: (a: A) => B,
) {
  return { ...page, items: page.items.map(map) };
}
