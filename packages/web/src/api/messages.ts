/** Error messages from the catalog: an `ApiError`'s msgKey translated with its args, the code as a fallback. */
import { ApiError } from './envelope.js';

export type Translate = (key: string, args?: Record<string, unknown>) => string;

export function messageOf(error: unknown, t: Translate, has: (key: string) => boolean): string {
  if (error instanceof ApiError) {
    return has(error.msgKey) ? t(error.msgKey, error.args) : `${t('error.unknown')} (${error.code})`;
  }
  return t('error.unknown');
}
