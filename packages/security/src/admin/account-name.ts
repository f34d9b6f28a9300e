/**
 * Account names as they are stored (user create; import reuses it): NFKC-normalised and trimmed, so that
 * compatibility look-alikes (full-width `ａｄｍｉｎ`, ligatures, superscripts) become the one name they look like,
 * and refused (48000 naming the field) when they hold characters that make two names look alike or render
 * misleadingly: control characters, bidirectional overrides and isolates, zero-width and other invisible
 * format characters, and any whitespace. Nor may a name mix the letters of several scripts (UTS #39's "highly
 * restrictive" level: one script, or Latin with the scripts written together in Chinese, Japanese or Korean):
 * `superAdmіn` with a Cyrillic `і` is another account that looks exactly like the super admin's. Whether a name
 * collides with an existing account in another case or accent is for the database to say (its collation; 42006).
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

/** The scripts a name's letters are told apart by; a letter of any other script counts as `Other`. */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Thai',
  'Lao',
  'Khmer',
  'Myanmar',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Tibetan',
  'Mongolian',
  'Ethiopic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
].map((name) => ({ name, test: new RegExp(`\\p{Script=${name}}`, 'u') }));

/** Sets of scripts one name may combine (besides any single script): how Chinese, Japanese and Korean are written. */
const TOGETHER = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/**
 * Letters UTS #39 leaves out of the comparison: those of the Common and Inherited scripts, shared by several
 * scripts (the prolonged sound mark `ー` of kana, the ʻokina `ʻ`, the modifier apostrophe `ʼ`).
 */
const SHARED_LETTER = /[\p{sc=Common}\p{sc=Inherited}]/u;

/** The scripts of the letters of `name` (digits, punctuation, marks and shared letters belong to none). */
function scriptsOf(name: string): Set<string> {
  const found = new Set<string>();
  for (const char of name) {
    if (!/\p{L}/u.test(char) || SHARED_LETTER.test(char)) continue;
    found.add(SCRIPTS.find((s) => s.test.test(char))?.name ?? 'Other');
  }
  return found;
}

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
  const scripts = scriptsOf(name);
  if (scripts.size > 1 && !TOGETHER.some((set) => [...scripts].every((script) => set.has(script))))
    throw invalid(field, `must not mix the letters of several scripts (${[...scripts].join(', ')})`);
  if ([...name].length > ACCOUNT_MAX_CHARS || name.length > ACCOUNT_MAX_CHARS)
    throw invalid(field, `longer than ${ACCOUNT_MAX_CHARS} characters once normalised`);
  return name;
}
