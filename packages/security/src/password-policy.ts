/**
 * Password policy (spec "Password policy"): the requirements read from the `sys.security.password.*` runtime
 * keys, the check that names every unmet requirement, and the expiry test used at login.
 */
import { BusinessError } from '@svc/kernel';
import { AdminErrorCode } from './admin/codes.js';

/** The effective policy; each field mirrors one `sys.security.password.*` runtime key. */
export interface PasswordPolicy {
  /** Fewest characters (Unicode code points). @default 8 */
  minLength: number;
  /** Needs an upper-case letter. @default true */
  requireUpper: boolean;
  /** Needs a lower-case letter. @default true */
  requireLower: boolean;
  /** Needs a decimal digit. @default true */
  requireDigit: boolean;
  /** Needs a character that is neither a letter nor a digit. @default false */
  requireSpecial: boolean;
  /** Days until a password expires; 0 = never. @default 0 */
  expireDays: number;
  /** Accounts created by an admin or an import must change their password at first login. @default false */
  forceChangeOnFirstLogin: boolean;
  /** Recent password hashes kept and refused on self-service change; 0 = none. @default 0 */
  historyCount: number;
}

/** Names of the requirements {@link checkPassword} can report, equal to the policy fields. */
export type PasswordRequirement =
  | 'minLength'
  | 'requireUpper'
  | 'requireLower'
  | 'requireDigit'
  | 'requireSpecial';

// Unicode classes rather than ASCII ranges: 'É' is an upper-case letter and '٣' a digit for the people who
// type them. Combining marks belong to the letter they modify, so they are not "special".
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const DIGIT = /\p{Nd}/u;
const SPECIAL = /[^\p{L}\p{M}\p{N}]/u;

const MS_PER_DAY = 86_400_000;

/**
 * The requirements `password` does not meet, in policy order; empty when it passes. Length counts Unicode
 * code points of the NFC form (the form that is hashed), so an emoji or an accented letter is one character.
 * An empty password never passes, whatever `minLength` says.
 */
export function checkPassword(password: string, policy: PasswordPolicy): PasswordRequirement[] {
  const unmet: PasswordRequirement[] = [];
  const text = password.normalize('NFC');
  const length = [...text].length;
  if (length < Math.max(1, policy.minLength)) unmet.push('minLength');
  if (policy.requireUpper && !UPPER.test(text)) unmet.push('requireUpper');
  if (policy.requireLower && !LOWER.test(text)) unmet.push('requireLower');
  if (policy.requireDigit && !DIGIT.test(text)) unmet.push('requireDigit');
  if (policy.requireSpecial && !SPECIAL.test(text)) unmet.push('requireSpecial');
  return unmet;
}

/**
 * Throws `PasswordTooWeak` (42019) when `password` fails the policy. `args` carries the whole requirement
 * set (so the frontend can show the rules) and `unmet`, the names of the ones that failed.
 */
export function assertPassword(password: string, policy: PasswordPolicy): void {
  const unmet = checkPassword(password, policy);
  if (unmet.length === 0) return;
  const { minLength, requireUpper, requireLower, requireDigit, requireSpecial } = policy;
  throw new BusinessError(AdminErrorCode.PasswordTooWeak, {
    minLength,
    requireUpper,
    requireLower,
    requireDigit,
    requireSpecial,
    unmet,
  });
}

/**
 * Whether a password last changed at `lastChange` has expired at `now`. Never when `expireDays` <= 0. A null
 * anchor is not expired: the login flow fills it with the current time first, so the window starts then.
 */
export function isPasswordExpired(lastChange: Date | null, expireDays: number, now: Date | number): boolean {
  if (lastChange === null || !(expireDays > 0)) return false;
  const at = typeof now === 'number' ? now : now.getTime();
  return lastChange.getTime() + expireDays * MS_PER_DAY <= at;
}
