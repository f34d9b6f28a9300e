/**
 * Text helpers shared by repositories.
 */

/** Cuts `text` to at most `max` UTF-16 code units without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * `text` as every dialect stores it: NUL (PostgreSQL refuses it in text, SQLSTATE 22021) and lone surrogates
 * (not encodable as UTF-8) become U+FFFD. For what a log records of a request, which must be stored whatever the
 * request held; input a route stores is refused before (48000) instead.
 */
export function storableText(text: string): string {
  if (text.isWellFormed() && !text.includes('\0')) return text;
  return text.toWellFormed().replaceAll('\0', '\uFFFD');
}
