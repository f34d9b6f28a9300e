/**
 * SMS codes for the second factor and for passwordless login (spec "SMS second factor and SMS login"). Codes
 * are `CodeLength` random digits living `TtlSeconds` in the cache only. Every send passes the per-number
 * cooldown (`ResendSeconds`, shared by both purposes) and the per-number daily limit (40008). A code is taken
 * atomically to be checked, so it is used once; a wrong one goes back with one attempt fewer (40010,
 * `args.attemptsLeft`) until `MaxAttempts`, then it is gone (40011). A code is compared without its ASCII
 * whitespace (`typed-code.ts`), as TOTP codes are.
 *
 * SMS login answers every number alike: an unknown, shared or disabled number gets the same answer, the same
 * cooldown and the same daily count as a real one, and a decoy code that can never succeed, so even wrong-code
 * answers (40010 then 40011) do not tell which numbers are real. Only a number matching exactly one enabled
 * user receives a code.
 */
import type { PhoneUserRepository } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import { BusinessError, constantTimeEqual, ErrorCode, guidV7, randomDigits, sha256Hex } from '@svc/kernel';
import { type LockAttempt, settleAttempt } from '../lockout.js';
import type { ClockStore } from './clock-store.js';
import { MFA_KEYS, SMS_DAY_COUNTER_TTL_MS } from './constants.js';
import type { SmsOtpOptions } from './settings.js';
import type { SmsPurpose, SmsSender } from './sms-sender.js';
import { withoutAsciiWhitespace } from './typed-code.js';

/** Answer of a send or resend (contract §5). */
export interface SmsSendResult {
  expiresSeconds: number;
  resendSeconds: number;
}

/** The `args` of 40009 at login. */
export interface SmsChallengeArgs {
  challengeId: string;
  /** The number with its middle hidden (`138****8000`). */
  phoneMask: string;
  /** Seconds until a resend is allowed. */
  countdown: number;
  expiresSeconds: number;
}

export interface SmsCodeService {
  /**
   * Starts the SMS step of a login for a user with a phone: the challenge (bound to the user and to the stamp of
   * the credential it was started with) and a code.
   */
  startMfa(user: { id: number; phone: string; credential?: string | undefined }): Promise<SmsChallengeArgs>;
  /**
   * Sends a new code for a live challenge (cooldown and daily limit apply); 40011 for a dead challenge, and for one
   * `alive` refuses (asked before anything is sent or counted; the challenge is then dropped).
   */
  resendMfa(challengeId: string, alive?: (step: SmsStep) => Promise<boolean>): Promise<SmsSendResult>;
  /** The user a live challenge is bound to, without touching it (for the login log of a failed attempt). */
  peekMfaUser(challengeId: string): Promise<number | undefined>;
  /**
   * Checks the code of a challenge; answers the user it is bound to, the credential stamp it was started with and
   * the number its code went to. `guard` reserves the attempt on the user's second-factor counter before the
   * comparison (throws 40004 while locked).
   */
  completeMfa(
    challengeId: string,
    code: string,
    guard?: (userId: number) => Promise<LockAttempt>,
  ): Promise<SmsStep>;
  /**
   * Sends a code to a number a signed-in user wants as theirs (purpose `phone`); cooldown and daily limit apply.
   * `credential` is the stamp of the password the request was made with.
   */
  sendPhone(userId: number, phone: string, credential?: string): Promise<SmsSendResult>;
  /**
   * Checks the code sent to `phone` for `userId` (40010 with attempts left, 40011 when none is live); answers the
   * stamp of the password it was requested with.
   */
  completePhone(userId: number, phone: string, code: string): Promise<{ credential: string | undefined }>;
  /** SMS login send: same answer for every number; a code only for a number of exactly one enabled user. */
  sendLogin(phone: string): Promise<SmsSendResult>;
  /** Checks an SMS login code; answers the user id. */
  completeLogin(phone: string, code: string): Promise<number>;
}

/** What an SMS step of a login was issued for: its user, the password it was started with, its number. */
export interface SmsStep {
  userId: number;
  /** Stamp of the password the login was started with (see `credentialStamp`). */
  credential: string | undefined;
  /** The number the code went to. */
  phone: string;
}

interface CodeRecord {
  /** The user the code logs in; null for a decoy. */
  userId: number | null;
  /** Second factor and new number: the stamp of the password the step or request was made with. */
  credential?: string | undefined;
  phone: string;
  /** Null when the challenge was opened during a cooldown and no code was sent yet. */
  code: string | null;
  attempts: number;
  expiresAt: number;
}

export interface SmsCodeDeps {
  cache: Cache;
  store: ClockStore;
  phones: PhoneUserRepository;
  sender: SmsSender;
  options: SmsOtpOptions;
}

/** `138****8000`: the first three and last four digits of a long number, less of a short one. */
export function maskPhone(phone: string): string {
  const keep = phone.length >= 8 ? [3, 4] : [1, 1];
  const [head, tail] = keep as [number, number];
  if (phone.length <= head + tail) return '*'.repeat(phone.length);
  return `${phone.slice(0, head)}${'*'.repeat(phone.length - head - tail)}${phone.slice(-tail)}`;
}

const phoneKey = (phone: string) => sha256Hex(phone.trim());
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function createSmsCodeService(deps: SmsCodeDeps): SmsCodeService {
  const { cache, store, phones, sender, options } = deps;
  const ttlMs = options.ttlSeconds * 1000;
  const sendResult: SmsSendResult = {
    expiresSeconds: options.ttlSeconds,
    resendSeconds: options.resendSeconds,
  };
  const tooMany = (retryAfterMs: number) =>
    new BusinessError(ErrorCode.TooManyRequests, { retryAfterSeconds: seconds(retryAfterMs) });

  /** Cooldown, then the daily count; throws 40008 when either refuses. */
  async function admit(phone: string): Promise<void> {
    const key = phoneKey(phone);
    const day = new Date(store.nowMs()).toISOString().slice(0, 10);
    const dayKey = `${MFA_KEYS.smsDay}${key}:${day}`;
    const limit = options.dailySendLimitPerPhone;
    if ((await cache.getCounter(dayKey)) >= limit)
      throw new BusinessError(ErrorCode.TooManyRequests, { limit });
    const window = await store.claimWindow(`${MFA_KEYS.smsCooldown}${key}`, options.resendSeconds * 1000);
    if (!window.ok) throw tooMany(window.retryAfterMs);
    if ((await cache.increment(dayKey, { ttlMs: SMS_DAY_COUNTER_TTL_MS })) > limit) {
      throw new BusinessError(ErrorCode.TooManyRequests, { limit });
    }
  }

  async function deliver(purpose: SmsPurpose, phone: string, code: string) {
    await sender.send({ purpose, phone, code });
  }

  /**
   * Takes the record and checks `code` (and, when given, the number it was sent to); a wrong code goes back
   * with one attempt fewer.
   */
  async function check(
    key: string,
    code: string,
    guard?: (userId: number) => Promise<LockAttempt>,
    phone?: string,
  ): Promise<CodeRecord> {
    const record = await store.take<CodeRecord>(key);
    if (!record) throw new BusinessError(ErrorCode.SmsCodeExpired);
    let attempt: LockAttempt | undefined;
    try {
      attempt = guard && record.userId !== null ? await guard(record.userId) : undefined;
    } catch (error) {
      // Refused before the code was compared (locked, or busy: 40008 asks for a retry): the record goes back as it
      // was, so the retry can still succeed.
      await store.restore(key, record);
      throw error;
    }
    return settleAttempt(attempt, async () => {
      const right =
        record.code !== null &&
        record.userId !== null &&
        (phone === undefined || phone.trim() === record.phone) &&
        constantTimeEqual(withoutAsciiWhitespace(code), record.code);
      if (right) {
        await attempt?.succeeded();
        return record;
      }
      const attempts = record.attempts + 1;
      const attemptsLeft = Math.max(0, options.maxAttempts - attempts);
      // Counted before the record goes back: a restore that throws (the cache failing) would otherwise leave the
      // attempt unsettled, and settleAttempt would give back the reservation of a code that was compared.
      try {
        attempt?.failed();
      } finally {
        if (attemptsLeft > 0) await store.restore(key, { ...record, attempts });
      }
      throw new BusinessError(ErrorCode.SmsCodeWrong, { attemptsLeft });
    });
  }

  const newCode = () => randomDigits(options.codeLength);

  return {
    async startMfa(user) {
      const phone = user.phone.trim();
      const challengeId = guidV7(store.nowMs());
      let code: string | null = newCode();
      let countdown = options.resendSeconds;
      try {
        await admit(phone);
      } catch (error) {
        // During a cooldown the step still opens (the code sent moments ago belongs to another challenge);
        // the user asks for a resend when the countdown ends. The daily limit refuses outright.
        const retry = (error as BusinessError).args?.retryAfterSeconds;
        if (typeof retry !== 'number') throw error;
        code = null;
        countdown = retry;
      }
      await store.put<Omit<CodeRecord, 'expiresAt'>>(
        `${MFA_KEYS.smsChallenge}${challengeId}`,
        { userId: user.id, credential: user.credential, phone, code, attempts: 0 },
        ttlMs,
      );
      if (code !== null) await deliver('mfa', phone, code);
      return { challengeId, phoneMask: maskPhone(phone), countdown, expiresSeconds: options.ttlSeconds };
    },

    async resendMfa(challengeId, alive) {
      const key = `${MFA_KEYS.smsChallenge}${challengeId}`;
      const record = await store.take<CodeRecord>(key);
      if (!record || record.userId === null) throw new BusinessError(ErrorCode.SmsCodeExpired);
      const step = { userId: record.userId, credential: record.credential, phone: record.phone };
      // A dead step sends nothing: above all no new code to a number that is no longer the account's.
      if (alive && !(await alive(step))) throw new BusinessError(ErrorCode.SmsCodeExpired);
      try {
        await admit(record.phone);
      } catch (error) {
        await store.restore(key, record);
        throw error;
      }
      // A new code, but not new attempts: resending must not reset what wrong guesses have used up.
      const code = newCode();
      await store.put<Omit<CodeRecord, 'expiresAt'>>(key, { ...record, code }, ttlMs);
      await deliver('mfa', record.phone, code);
      return sendResult;
    },

    async peekMfaUser(challengeId) {
      return (await store.peek<CodeRecord>(`${MFA_KEYS.smsChallenge}${challengeId}`))?.userId ?? undefined;
    },

    async completeMfa(challengeId, code, guard) {
      const record = await check(`${MFA_KEYS.smsChallenge}${challengeId}`, code, guard);
      return { userId: record.userId as number, credential: record.credential, phone: record.phone };
    },

    async sendPhone(userId, input, credential) {
      const phone = input.trim();
      await admit(phone);
      const code = newCode();
      await store.put<Omit<CodeRecord, 'expiresAt'>>(
        `${MFA_KEYS.smsPhone}${userId}`,
        { userId, credential, phone, code, attempts: 0 },
        ttlMs,
      );
      await deliver('phone', phone, code);
      return sendResult;
    },

    async completePhone(userId, phone, code) {
      const record = await check(`${MFA_KEYS.smsPhone}${userId}`, code, undefined, phone);
      return { credential: record.credential };
    },

    async sendLogin(input) {
      const phone = input.trim();
      await admit(phone);
      const enabled = await phones.findLiveByPhone(phone, 2, { enabledOnly: true });
      const owner = enabled.length === 1 ? enabled[0] : undefined;
      const code = newCode();
      await store.put<Omit<CodeRecord, 'expiresAt'>>(
        `${MFA_KEYS.smsLogin}${phoneKey(phone)}`,
        { userId: owner?.id ?? null, phone, code, attempts: 0 },
        ttlMs,
      );
      if (owner) await deliver('login', phone, code);
      return sendResult;
    },

    async completeLogin(phone, code) {
      const record = await check(`${MFA_KEYS.smsLogin}${phoneKey(phone)}`, code);
      return record.userId as number;
    },
  };
}
