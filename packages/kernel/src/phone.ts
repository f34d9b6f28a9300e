/**
 * The one rule for a stored phone number (contract §11): 5 to 20 characters, digits with an optional leading `+`
 * and spaces or dashes between digits. Admin user and organisation writes answer 48000 otherwise, the import
 * 46008; duplicates stay allowed.
 */
export const PHONE_NUMBER_PATTERN = /^(?=.{5,20}$)\+?\d(?:[\d -]*\d)?$/;

/** True when `value` is a phone number by {@link PHONE_NUMBER_PATTERN}. */
export function isPhoneNumber(value: string): boolean {
  return PHONE_NUMBER_PATTERN.test(value);
}
