/**
 * How each family of cache keys behaves while Redis is down (contract §10), declared once here beside the
 * features that own the keys and handed to the resilient cache by the host:
 * - challenges live only in the shared cache and cannot be answered from one instance's memory (a captcha
 *   ticket issued by one instance may be checked by another), so they answer 503 with 50004;
 * - session and permission entries are copies of database rows: while Redis is down they are neither read
 *   nor written locally (every check goes to the database, so a revocation on one instance holds on all
 *   instances that lost Redis too), and the shared copies are dropped and the generations moved on when Redis
 *   returns to an instance, because invalidations it made meanwhile were lost. An instance that kept Redis while
 *   another lost it goes on trusting the shared copies until then: sessions are re-read from the database at
 *   least every minute (`SESSION_CACHE_TTL_MS`), codes at the latest when the other instance is back;
 * - everything else (lockout, rate limits, SMS cooldowns and day counters, re-auth windows, refresh
 *   single-flight) continues per instance in memory.
 */
import {
  PERMISSION_GENERATION_KEY,
  PERMISSION_KEY_PREFIX,
  PERMISSION_USER_GENERATION_PREFIX,
  SESSION_KEY_PREFIX,
} from './auth/constants.js';
import { MFA_KEYS } from './mfa/constants.js';
import { PORTAL_GENERATION_KEY, PORTAL_KEY_PREFIX } from './portal/portal.js';

/** Stateful challenges: HTTP 503 with 50004 while the shared cache is down. */
export const SHARED_ONLY_CACHE_PREFIXES: readonly string[] = [
  MFA_KEYS.captcha,
  MFA_KEYS.smsChallenge,
  MFA_KEYS.smsLogin,
  MFA_KEYS.totpChallenge,
  MFA_KEYS.totpBind,
  // TOTP replay guards: one instance's memory cannot stop a code replayed on another within its step.
  MFA_KEYS.totpStep,
  MFA_KEYS.totpLastStep,
  // External login flows, tickets and pending links (the callback may land on another instance).
  'extauth:',
];

/** Copies of database rows: bypassed while the shared cache is down, flushed from it when it returns. */
export const DATABASE_BACKED_CACHE_PREFIXES: readonly string[] = [
  SESSION_KEY_PREFIX,
  PERMISSION_GENERATION_KEY,
  PERMISSION_USER_GENERATION_PREFIX,
  PERMISSION_KEY_PREFIX,
  // The portal's answers are built from grants and stamped with the permission generations.
  PORTAL_KEY_PREFIX,
];

/** Generations entries are compared against: moved on (never reset) when the shared cache returns. */
export const RECOVERY_COUNTERS: readonly string[] = [PERMISSION_GENERATION_KEY, PORTAL_GENERATION_KEY];
