/**
 * Paging queries of the operations routes (contract §3): `current`, `size`, `sortField`, `sortOrder` plus each
 * route's filters, names matched case-insensitively; malformed numbers answer 48000 naming the parameter and a
 * `size` above `Service:Api:MaxPageSize` answers 48001 `{size, max}`. Defaults and the sort-column rule are the
 * data layer's. (The administration routes follow the same rules.)
 */
import { z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode } from '@svc/kernel';

/** An integer query parameter kept within the safe-integer range. */
export const intQuery = z
  .string()
  .regex(/^-?\d{1,15}$/, 'must be an integer')
  .transform(Number);

/** A path id: a positive integer (anything else answers 48000, never reaches a query). */
export const idPath = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n > 0, 'must be a positive integer')
  .openapi({ param: { name: 'id', in: 'path' }, type: 'integer' });

/** `true`/`false`/`1`/`0`, any case. */
export const boolQuery = z
  .string()
  .regex(/^(true|false|1|0)$/i, 'must be true or false')
  .transform((v) => v.toLowerCase() === 'true' || v === '1');

/** A free-text filter, bounded so a query string cannot carry megabytes into a LIKE. */
export const textQuery = z.string().max(100);

const pagingShape = {
  current: intQuery.optional().openapi({ type: 'integer', description: '1-based page (<= 0 → 1).' }),
  size: intQuery
    .optional()
    .openapi({ type: 'integer', description: 'Page size (default 20; above the maximum → 48001).' }),
  sortField: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: 'A column of the row; others are ignored.' }),
  sortOrder: z.string().max(8).optional().openapi({ description: '`asc` or `desc`.' }),
};

function canonicalKeys(names: readonly string[]) {
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n] as const));
  return (input: unknown): unknown => {
    if (typeof input !== 'object' || input === null) return input;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const canonical = byLower.get(key.toLowerCase()) ?? key;
      if (canonical in out && key !== canonical) continue;
      out[canonical] = value;
    }
    return out;
  };
}

/** The query schema of a paged route: paging plus `filters`, names case-insensitive. */
export function opsPageQuery<S extends z.ZodRawShape>(filters: S) {
  const shape = { ...pagingShape, ...filters };
  return z.preprocess(canonicalKeys(Object.keys(shape)), z.object(shape)) as unknown as z.ZodObject<
    typeof pagingShape & S
  >;
}

/** Throws 48001 `{size, max}` above `Service:Api:MaxPageSize`. */
export function assertPageSize(query: { size?: number | undefined }, max: number): void {
  if (query.size !== undefined && query.size > max)
    throw new BusinessError(ErrorCode.PageSizeExceeded, { size: query.size, max });
}

/** Page of rows as the contract shows it. */
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
