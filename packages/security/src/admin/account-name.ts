/**
 * Account names as they are stored (user create; import reuses it): NFKC-normalised and trimmed, so that
 * compatibility look-alikes (full-width `ａｄｍｉｎ`, ligatures, superscripts) become the one name they look like,
 * and refused (48000 naming the field) when they hold characters that make two names look alike or render
 * misleadingly: control characters, bidirectional overrides and isolates, zero-width and other invisible
 * format characters, and any whitespace. Whether a name collides with an existing account in another case or
 * accent is for the database to say (its collation; 42006).
 */
import { BusinessError, ErrorCode } from '@svc/kernel';

/** Longest stored account (`sys_user.account`). */
export const ACCOUNT_MAX_CHARS = 64;

/**
 * Cc (controls, NUL included) and Cf (format: U+200B–U+200F zero-width and marks, U+202A–U+202E embeddings and
 * overrides, U+2066–U+2069 isolates, U+2060 word joiner, U+FEFF, U+00AD soft hyphen, U+061C), plus the
 * invisible fillers outside Cf (U+115F, U+1160, U+3164, U+FFA0 Hangul fillers, U+180E) and whitespace.
 */
const REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s\u115f\u1160\u3164\uffa0\u180e]/u;

function invalid(field: string, message: string): BusinessError {
  return new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path: field, message }] });
}

/**
 * The stored form of an account name, or 48000 naming `field`.
 * @example normalizeAccountName('ａｌｉｃｅ') // 'alice'
 */
export function normalizeAccountName(raw: string, field = 'account'): string {
  const name = raw.normalize('NFKC').trim();
  if (name.length === 0) throw invalid(field, 'must not be empty');
  const bad = REFUSED.exec(name);
  if (bad) {
    const hex = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    throw invalid(field, `must not contain control, bidirectional, invisible or space characters (U+${hex})`);
  }
  if ([...name].length > ACCOUNT_MAX_CHARS || name.length > ACCOUNT_MAX_CHARS)
    throw invalid(field, `longer than ${ACCOUNT_MAX_CHARS} characters once normalised`);
  return name;
}
