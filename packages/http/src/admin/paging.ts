/**
 * Paging queries of the administration routes (contract §3): `current`, `size`, `sortField`, `sortOrder`
 * plus each route's filters, with parameter names matched case-insensitively. Malformed numbers or booleans
 * answer 48000 naming the parameter; `size` above `Service:Api:MaxPageSize` answers 48001 with
 * `args {size, max}`. Defaults (`current` <= 0 → 1, `size` <= 0 → 20) and the sort-column rule are applied by
 * the data layer.
 */
import { z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode } from '@svc/kernel';

/** An integer query parameter (kept small enough to be a safe integer). */
export const intParam = z
  .string()
  .regex(/^-?\d{1,15}$/, 'must be an integer')
  .transform(Number);

/** An id query parameter. */
export const idParam = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n > 0, 'must be a positive integer');

/** A boolean query parameter: `true`/`false`/`1`/`0`, any case. */
export const boolParam = z
  .string()
  .regex(/^(true|false|1|0)$/i, 'must be true or false')
  .transform((v) => v.toLowerCase() === 'true' || v === '1');

/** A free-text filter, bounded so a query string cannot carry megabytes into a LIKE. */
export const textParam = z.string().max(100);

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

/** Renames query keys to the schema's spelling when they differ only in case (`SIZE` → `size`, `SortField` → `sortField`). */
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
 * The query schema of a paged route: paging plus `filters`, names case-insensitive.
 * @example request: { query: pageQuerySchema({ account: textParam.optional() }) }
 */
export function pageQuerySchema<S extends z.ZodRawShape>(filters: S) {
  return querySchema({ ...pagingShape, ...filters });
}

/**
 * A query schema without paging, names case-insensitive. Typed as the inner object: the route config accepts
 * only objects and pipes of `unknown`, and a preprocess pipe validates and documents exactly like its object
 * (zod-to-openapi documents the pipe's output object).
 */
export function querySchema<S extends z.ZodRawShape>(shape: S): z.ZodObject<S> {
  return z.preprocess(canonicalKeys(Object.keys(shape)), z.object(shape)) as unknown as z.ZodObject<S>;
}

/** Throws 48001 `{size, max}` when the requested page size exceeds `Service:Api:MaxPageSize`. */
export function assertPageSize(query: { size?: number | undefined }, max: number): void {
  if (query.size !== undefined && query.size > max)
    throw new BusinessError(ErrorCode.PageSizeExceeded, { size: query.size, max });
}
