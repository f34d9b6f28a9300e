/**
 * Text filters of the administration lists, in SQL every dialect evaluates the same way: a case-insensitive
 * "contains" with LIKE wildcards in the user's text escaped. `!` is the escape character because a backslash
 * inside a MySQL string literal would itself be an escape.
 */
import { type Column, type SQL, sql } from 'drizzle-orm';

/**
 * Escapes `%`, `_`, `[` (a character class in SQL Server's LIKE: `[ops]` matches one `o`, `p` or `s`) and the
 * escape character itself, so user text matches literally on every dialect (each reads `!` before any character
 * as that character).
 */
export function escapeLike(text: string): string {
  return text.replace(/[![%_]/g, (ch) => `!${ch}`);
}

/** `lower(column) LIKE lower('%text%')`; undefined for a missing or blank filter. */
export function containsIgnoreCase(column: Column, text: string | undefined): SQL | undefined {
  const wanted = text?.trim();
  if (!wanted) return undefined;
  return sql`lower(${column}) like lower(${`%${escapeLike(wanted)}%`}) escape '!'`;
}

/**
 * The query with `sortField` kept only when it names one of `allowed` columns (property or SQL name, any
 * case): hashes and secrets are real columns too, and a list must not be orderable by them.
 */
export function restrictSort<Q extends { sortField?: string | undefined }>(
  query: Q,
  allowed: readonly Column[],
): Q {
  const wanted = query.sortField?.trim().toLowerCase();
  if (!wanted) return query;
  const ok = allowed.some((c) => c.name.toLowerCase() === wanted || camel(c.name) === wanted);
  return ok ? query : { ...query, sortField: undefined };
}

/** `create_time` → `createtime` (the lower-cased property key). */
const camel = (name: string) => name.replace(/_/g, '').toLowerCase();
