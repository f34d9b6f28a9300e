/**
 * Query and path parameters shared by every route (contract §3): paging (`current`, `size`, `sortField`,
 * `sortOrder`) plus each route's filters, with parameter names matched case-insensitively. Malformed numbers or
 * booleans answer 48000 naming the parameter; `size` above `Service:Api:MaxPageSize` answers 48001 with
 * `args {size, max}`. Defaults (`current` <= 0 → 1, `size` <= 0 → 20) and the sort-column rule are applied by the
 * data layer (`paginate`), which never turns `sortField` into SQL text.
 */
import { z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode } from '@svc/kernel';

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

/**
 * The query schema of a paged route: paging plus `filters`, names case-insensitive.
 * @example request: { query: pageQuerySchema({ account: textParam.optional() }) }
 */
export function pageQuerySchema<S extends z.ZodRawShape>(filters: S) {
  return querySchema({ ...pagingShape, ...filters });
}

/** Throws 48001 `{size, max}` when the requested page size exceeds `Service:Api:MaxPageSize`. */
export function assertPageSize(query: { size?: number | undefined }, max: number): void {
  if (query.size !== undefined && query.size > max) {
    throw new BusinessError(ErrorCode.PageSizeExceeded, { size: query.size, max });
  }
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
