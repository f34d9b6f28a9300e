/**
 * TOTP (RFC 6238) on otplib 13, with replay protection: a code is accepted once. The time step of every
 * accepted code is claimed atomically in the cache (`setIfAbsent`), so of two simultaneous submissions of one
 * code exactly one passes, and the newest accepted step per user is remembered so that an older code still
 * inside the drift window cannot follow a newer one (RFC 6238 §5.2).
 */
import type { Cache } from '@svc/data/cache';
import type * as Otplib from 'otplib';
import {
  MFA_KEYS,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_REPLAY_TTL_MS,
  TOTP_SECRET_BYTES,
  TOTP_TOLERANCE_SECONDS,
} from './constants.js';
import { withoutAsciiWhitespace } from './typed-code.js';

/** Six ASCII digits (`\d` is 0-9 only in JavaScript), once `withoutAsciiWhitespace` has read the input. */
const CODE = /^\d{6}$/;

/**
 * otplib (with its Base32 and HMAC plugins) is loaded by the first TOTP step, not at start-up: most requests and
 * many hosts never use it (issue 16, idle RSS).
 */
let otplib: Promise<typeof Otplib> | undefined;
const loadOtplib = () => (otplib ??= import('otplib'));

export interface TotpEngine {
  /** A new Base32 seed. */
  newSecret(): Promise<string>;
  /** The `otpauth://totp/...` URI an authenticator app scans. */
  uri(issuer: string, account: string, secret: string): Promise<string>;
  /** The time step a code matches at `nowMs` (within the drift window), or undefined. Does not consume. */
  match(secret: string, code: string, nowMs: number): Promise<number | undefined>;
  /**
   * Checks `code` for `userId` and consumes its time step: true once per code, false when it is wrong, older
   * than the newest accepted step, or already used.
   */
  accept(userId: number, secret: string, code: string, nowMs: number): Promise<boolean>;
}

export function createTotpEngine(deps: { cache: Cache }): TotpEngine {
  const { cache } = deps;

  async function match(secret: string, typed: string, nowMs: number, after?: number) {
    const code = withoutAsciiWhitespace(typed);
    if (!CODE.test(code)) return undefined;
    const result = await (await loadOtplib()).verify({
      secret,
      token: code,
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
      epoch: Math.floor(nowMs / 1000),
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      ...(after !== undefined ? { afterTimeStep: after } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  return {
    newSecret: async () => (await loadOtplib()).generateSecret({ length: TOTP_SECRET_BYTES }),
    uri: async (issuer, account, secret) =>
      (await loadOtplib()).generateURI({
        issuer,
        label: account,
        secret,
        digits: TOTP_DIGITS,
        period: TOTP_PERIOD_SECONDS,
      }),
    match: (secret, code, nowMs) => match(secret, code, nowMs),

    async accept(userId, secret, code, nowMs) {
      const lastKey = `${MFA_KEYS.totpLastStep}${userId}`;
      const last = await cache.get<number>(lastKey);
      const step = await match(secret, code, nowMs, typeof last === 'number' ? last : undefined);
      if (step === undefined) return false;
      if (!(await cache.setIfAbsent(`${MFA_KEYS.totpStep}${userId}:${step}`, 1, TOTP_REPLAY_TTL_MS)))
        return false;
      // Not atomic with the claim above, which is what decides; this only narrows older codes afterwards.
      const current = await cache.get<number>(lastKey);
      if (typeof current !== 'number' || current < step) await cache.set(lastKey, step, TOTP_REPLAY_TTL_MS);
      return true;
    },
  };
}
