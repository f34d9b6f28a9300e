/**
 * The console's language when the user has not chosen one: the first of the browser's languages the console has
 * (an exact tag, else the same language: `zh-TW` takes `zh-CN`, `en-GB` takes `en-US`), else the app's default.
 */
export function preferredLocale(
  available: readonly string[],
  browser: readonly string[] | undefined,
  fallback: string,
): string {
  const lower = available.map((a) => a.toLowerCase());
  for (const wanted of browser ?? []) {
    const tag = wanted.toLowerCase();
    const exact = lower.indexOf(tag);
    if (exact >= 0) return available[exact] as string;
    const language = tag.split('-')[0];
    const same = lower.findIndex((a) => a.split('-')[0] === language);
    if (same >= 0) return available[same] as string;
  }
  return fallback;
}
