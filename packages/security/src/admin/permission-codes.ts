/**
 * Permission codes as menus store them (contract §4): `METHOD:/api/v1/...`, upper-case method, lower-case
 * template, several joined by `;`. Saving normalises what an administrator typed; a part that is not a code
 * is refused with 48000 naming the field, never stored.
 */
import { splitPermissionCodes } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';

/** A code after normalisation: an HTTP method, `:`, a path starting with `/` without spaces or `;`. */
const CODE = /^[A-Z]+:\/[^\s;]*$/;

/** Longest stored permission text (several codes of a few dozen characters each). */
export const MAX_PERMISSION_TEXT = 2000;

/** One code normalised, or undefined when it is not a code. */
export function normalizePermissionCode(raw: string): string | undefined {
  const text = raw.trim();
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  const code = `${text.slice(0, colon).trim().toUpperCase()}:${text
    .slice(colon + 1)
    .trim()
    .toLowerCase()}`;
  return CODE.test(code) ? code : undefined;
}

/**
 * Normalises a menu's permission text: codes trimmed and cased, duplicates and empty parts dropped, joined by
 * `;`; null when nothing remains. Throws 48000 (`args.errors[0].path` = `field`) for a part that is not a code.
 */
export function normalizePermissionText(
  text: string | null | undefined,
  field = 'permission',
): string | null {
  if (text == null) return null;
  const codes: string[] = [];
  for (const part of splitPermissionCodes(text)) {
    const code = normalizePermissionCode(part);
    if (!code) {
      throw new BusinessError(ErrorCode.ParamInvalid, {
        errors: [{ path: field, message: `"${part}" is not a permission code (METHOD:/api/v1/...)` }],
      });
    }
    if (!codes.includes(code)) codes.push(code);
  }
  const joined = codes.join(';');
  if (joined.length > MAX_PERMISSION_TEXT) {
    throw new BusinessError(ErrorCode.ParamInvalid, {
      errors: [{ path: field, message: `longer than ${MAX_PERMISSION_TEXT} characters` }],
    });
  }
  return joined === '' ? null : joined;
}

/** Every code of several permission texts, without duplicates. */
export function codesOfPermissionTexts(texts: Iterable<string | null | undefined>): string[] {
  const codes = new Set<string>();
  for (const text of texts) for (const code of splitPermissionCodes(text)) codes.add(code);
  return [...codes];
}
