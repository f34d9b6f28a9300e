/** Redis URLs in logs and messages: without their password. No driver import, so it loads without the client. */

/** The URL without its password, safe for logs and error messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '<unparseable Redis URL, not shown as it may hold a password>';
  }
}
