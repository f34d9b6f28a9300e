/**
 * Case-insensitive "contains" filter of the operations lists (config, dictionaries, files), with LIKE
 * wildcards in the user's text escaped (`!` as escape character: a backslash would itself be an escape inside
 * a MySQL string literal). The same rule as the administration lists' filter.
 */
import { type Column, type SQL, sql } from 'drizzle-orm';

/** `lower(column) LIKE lower('%text%')`; undefined for a missing or blank filter. */
export function textContains(column: Column, text: string | undefined): SQL | undefined {
  const wanted = text?.trim();
  if (!wanted) return undefined;
  const escaped = wanted.replace(/[!%_]/g, (ch) => `!${ch}`);
  return sql`lower(${column}) like lower(${`%${escaped}%`}) escape '!'`;
}
