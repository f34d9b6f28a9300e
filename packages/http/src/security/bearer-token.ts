/** The bearer token of an `Authorization` header (its own module: the guards and the listener's direct path read it). */

/** A non-empty bearer token from `Authorization`, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header || header.length < 8) return undefined;
  if (header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = header.slice(7).trim();
  return token === '' ? undefined : token;
}
