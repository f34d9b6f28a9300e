/**
 * Fixed parameters of the second factors, each with its reason. What the spec makes configurable (SMS code
 * length, lifetimes, cooldown, attempts, daily limit; TOTP issuer, challenge lifetime, re-auth window, recovery
 * code count) lives in the options and runtime keys instead.
 */

/** Spec "Limits": a captcha ticket lives 2 minutes. */
export const CAPTCHA_TTL_MS = 2 * 60_000;

/**
 * Characters of a `char`/`path` captcha: four glyphs from an alphabet of 30 give ~20 bits per image, plenty
 * for a ticket that is consumed by its first guess; more glyphs only make humans fail more often.
 */
export const CAPTCHA_LENGTH = 4;

/** Captcha glyphs: upper-case letters and digits without look-alikes (0/O/Q, 1/I/L). */
export const CAPTCHA_ALPHABET = 'ABCDEFGHJKMNPRSTUVWXYZ23456789';

/**
 * TOTP parameters of RFC 6238 as every authenticator app implements them by default (SHA-1, 6 digits, 30 s);
 * an `otpauth://` URI with other values is ignored by several popular apps.
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/**
 * Accepted clock drift: one time step either side (RFC 6238 §5.2 recommends at most one step of network delay
 * and drift).
 */
export const TOTP_TOLERANCE_SECONDS = 30;

/** 160-bit seeds: RFC 4226 §4 requires at least 128 bits and recommends 160 (the HMAC-SHA1 output size). */
export const TOTP_SECRET_BYTES = 20;

/**
 * Wrong codes one TOTP challenge (login or binding) accepts before it is dropped. The spec allows retries;
 * a bound keeps a stolen password from trying many of the 10^6 codes within one challenge (the rate limit on
 * /auth/* bounds challenges per minute).
 */
export const TOTP_MAX_ATTEMPTS = 5;

/**
 * How long an accepted time step is remembered so that its code cannot be replayed: the code of step S is
 * accepted while the clock is within one step of S, so three steps (plus one of slack) cover its whole life.
 */
export const TOTP_REPLAY_TTL_MS = 4 * TOTP_PERIOD_SECONDS * 1000;

/**
 * Recovery codes: 10 characters from a 32-letter alphabet (50 bits) shown as `XXXXX-XXXXX`. They stand in for
 * the authenticator, are only usable together with the account's password, and each works once.
 */
export const RECOVERY_CODE_LENGTH = 10;
export const RECOVERY_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Daily SMS counters are kept a little longer than a UTC day so that a clock step never reopens the day. */
export const SMS_DAY_COUNTER_TTL_MS = 25 * 3_600_000;

/** Cache-key prefixes (all under the provider's own prefix, e.g. `svc:`). */
export const MFA_KEYS = {
  captcha: 'mfa:captcha:',
  smsChallenge: 'mfa:sms:ch:',
  smsLogin: 'mfa:sms:login:',
  /** Code confirming a new phone number of a signed-in user (`mfa:sms:phone:<userId>`). */
  smsPhone: 'mfa:sms:phone:',
  smsCooldown: 'mfa:sms:cd:',
  smsDay: 'mfa:sms:day:',
  totpChallenge: 'mfa:totp:ch:',
  totpBind: 'mfa:totp:bind:',
  totpStep: 'mfa:totp:step:',
  totpLastStep: 'mfa:totp:last:',
  reauth: 'mfa:reauth:',
} as const;
