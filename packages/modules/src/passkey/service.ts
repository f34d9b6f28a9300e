/**
 * Passkeys (WebAuthn), module `Passkey`: registration, passwordless login with discoverable credentials,
 * re-authentication, and the personal and administrative management of a user's passkeys.
 * `@simplewebauthn/server` does every WebAuthn check (client data, authenticator data, CBOR, COSE keys,
 * attestation, signatures); this file keeps the challenges and decides what an accepted credential means here:
 *
 * - A challenge lives in the cache only (`passkey:challenge:<id>`, `ChallengeTtlSeconds`, service clock), with its
 *   flow (register, login, reauth), the RP id and origins of that moment and, except for a login, the user and
 *   session that asked; it is taken atomically before anything is checked, so it serves one answer whatever
 *   that answer is (also across instances on Redis). Unknown, expired, used or another flow's: 40036.
 * - Every refusal of an assertion is one code (40035) and, once the credential names a user, one failure on
 *   that user's second-factor counter (contract §10), reserved before the check: the last one allowed locks
 *   (40004). An unknown credential names nobody and counts on no one.
 * - The signature counter is checked here, after the signature: the library's own check runs before it and
 *   would let an unsigned request with a low counter write "possible clone" rows. A correctly signed assertion
 *   whose counter did not go up (when the authenticator keeps one) is refused (40035) and logged as 40039.
 * - A login follows the password login's rules: both locks first, a disabled account told only after a right
 *   credential (40005), the session through `openSession` (modes, limits, idle rules), one login-log row. With
 *   user verification it counts as two factors (no SMS/TOTP step, ForceTotp and requireForSuperAdmin met, an
 *   MFA session); without it the passkey stands for the password only and the second-factor step follows.
 * - Adding a passkey needs an open re-authentication window, even while TOTP is off.
 */
import { randomBytes } from 'node:crypto';
import type * as WebAuthn from '@simplewebauthn/server';
import type { SysUserRow, UserRepository } from '@svc/data';
import { uniqueOr } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import { BusinessError, ErrorCode, isBusinessError, type Logger } from '@svc/kernel';
import {
  type ClientInfo,
  createClockStore,
  type IssuedSession,
  type LoginSteps,
  type PasswordCheck,
  type ReauthService,
  type SessionAuthService,
  type SessionManager,
  settleAttempt,
  type UserPrincipal,
} from '@svc/security';
import { PasskeyErrorCode } from './codes.js';
import { importWebAuthn } from './library.js';
import { hostWithinRpId, originOf, type PasskeyOptions, passkeysUsable } from './options.js';
import type { PasskeyStore } from './store.js';
import type { PasskeyRow } from './tables/index.js';

/** Longest credential id kept, in base64url (512 raw bytes; see the table). */
export const MAX_CREDENTIAL_ID_LENGTH = 700;
/** Longest public key kept, in base64url. */
export const MAX_PUBLIC_KEY_LENGTH = 2048;
/** The name a passkey gets when the user gives none. */
export const DEFAULT_PASSKEY_NAME = 'Passkey';
/** ES256, EdDSA and RS256: what authenticators make; the library verifies each. */
const ALGORITHMS = [-7, -8, -257];
const KEY = 'passkey:challenge:';

type Flow = 'register' | 'login' | 'reauth';

interface Challenge {
  flow: Flow;
  challenge: string;
  rpId: string;
  origins: string[];
  userId: number | null;
  sessionId: string | null;
}

/** The browser's answer to `navigator.credentials.create()` (`RegistrationResponseJSON`). */
export type RegistrationResponse = WebAuthn.RegistrationResponseJSON;
/** The browser's answer to `navigator.credentials.get()` (`AuthenticationResponseJSON`). */
export type AuthenticationResponse = WebAuthn.AuthenticationResponseJSON;

/** What the personal and administrative lists show of a passkey. */
export interface PasskeyView {
  id: number;
  name: string;
  createTime: Date;
  lastUsedTime: Date | null;
  backedUp: boolean;
}

export interface PasskeyServiceDeps {
  store: PasskeyStore;
  options: PasskeyOptions;
  isDevelopment: boolean;
  cache: Cache;
  users: Pick<UserRepository, 'findById'>;
  auth: Pick<SessionAuthService, 'openSession'>;
  /** Both counters and the login-log writer of the password login. */
  passwords: Pick<PasswordCheck, 'lock' | 'secondFactorLock' | 'log'>;
  /** The second-factor step of a login without user verification. */
  loginSteps: Pick<LoginSteps, 'hooks'>;
  reauth: Pick<ReauthService, 'grant' | 'windowOpen'>;
  sessions: Pick<SessionManager, 'revokeUserSessions'>;
  /** The runtime switch `sys.security.passkey.enabled`. */
  runtimeEnabled: () => Promise<boolean>;
  logger: Logger;
  now: () => Date;
}

export interface CeremonyOptions<T> {
  challengeId: string;
  options: T;
}

export interface PasskeyService {
  /** True while passkeys are on (the deploy floor or the runtime switch, and an RP id outside Development). */
  enabled(): Promise<boolean>;
  registrationOptions(
    principal: UserPrincipal,
    requestOrigin: string,
  ): Promise<CeremonyOptions<WebAuthn.PublicKeyCredentialCreationOptionsJSON>>;
  register(
    principal: UserPrincipal,
    input: { challengeId: string; response: RegistrationResponse; name?: string | undefined },
  ): Promise<{ id: number; name: string }>;
  loginOptions(
    requestOrigin: string,
  ): Promise<CeremonyOptions<WebAuthn.PublicKeyCredentialRequestOptionsJSON>>;
  login(
    input: { challengeId: string; response: AuthenticationResponse },
    client: ClientInfo,
  ): Promise<IssuedSession>;
  reauthOptions(
    principal: UserPrincipal,
    requestOrigin: string,
  ): Promise<CeremonyOptions<WebAuthn.PublicKeyCredentialRequestOptionsJSON>>;
  /** Checks an assertion of the caller's own passkey and opens the re-authentication window. */
  reauth(
    principal: UserPrincipal,
    input: { challengeId: string; response: AuthenticationResponse },
    client: ClientInfo,
  ): Promise<{ expiresAt: Date }>;
  list(userId: number): Promise<PasskeyView[]>;
  rename(userId: number, id: number, name: string): Promise<void>;
  /** The owner removes one of theirs (40038 for a missing one or another user's). */
  remove(userId: number, id: number): Promise<void>;
  /**
   * An administrator removes a user's passkey: the row first, then every session of the user but the caller's
   * own is revoked (the order `openSession` relies on).
   */
  removeByAdmin(userId: number, id: number, actorSessionId: string | undefined): Promise<void>;
  /** Removes every passkey of a user (`/sys/mfa/clear`); the caller revokes the sessions. */
  removeAll(userId: number): Promise<number>;
  /** Reads the table: rejects while it cannot be read (readiness). */
  probe(): Promise<void>;
}

/**
 * @simplewebauthn/server is loaded by the first ceremony, not at start-up: hosts that never use passkeys do
 * not pay its memory (as otplib and openid-client).
 */
let library: Promise<typeof WebAuthn> | undefined;
const loadLibrary = () => (library ??= importWebAuthn());

const verificationFailed = () => new BusinessError(PasskeyErrorCode.PasskeyVerificationFailed);
const challengeInvalid = () => new BusinessError(PasskeyErrorCode.PasskeyChallengeInvalid);
const notFound = () => new BusinessError(PasskeyErrorCode.PasskeyNotFound);

/** The WebAuthn user handle of a user: their id as text (no personal data; stable, so a re-registration replaces). */
const userHandle = (userId: number) => new TextEncoder().encode(String(userId));
const userHandleText = (userId: number) => Buffer.from(String(userId)).toString('base64url');

/** A name as the lists show it: controls and format characters removed, trimmed, at most 64 characters. */
export function passkeyName(text: string | undefined): string {
  const clean = (text ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return clean.slice(0, 64) || DEFAULT_PASSKEY_NAME;
}

const view = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  createTime: row.createTime,
  lastUsedTime: row.lastUsedTime,
  backedUp: row.backedUp,
});

export function createPasskeyService(deps: PasskeyServiceDeps): PasskeyService {
  const { store, options, passwords, logger } = deps;
  const challenges = createClockStore(deps.cache, deps.now);
  const ttlMs = options.ChallengeTtlSeconds * 1000;
  const requireUv = options.UserVerification === 'required';

  const usable = passkeysUsable(options, { isDevelopment: deps.isDevelopment });
  if (!usable)
    logger.warn(
      'Passkeys stay off: Service:Security:Passkey:RpId is not set (required outside Development).',
    );
  const enabled = async () => usable && (options.Enabled || (await deps.runtimeEnabled()));
  async function assertEnabled(): Promise<void> {
    if (!(await enabled())) throw new BusinessError(PasskeyErrorCode.PasskeyDisabled);
  }

  /**
   * The RP id and origins of a ceremony: the configured ones; in Development without an RP id the request's
   * host, and there the request's own origin is allowed too (validated at start-up otherwise).
   */
  function relyingParty(requestOrigin: string): { rpId: string; origins: string[] } {
    const request = originOf(requestOrigin);
    const rpId = options.RpId?.trim().toLowerCase() || request?.hostname;
    if (!rpId) throw new BusinessError(PasskeyErrorCode.PasskeyDisabled);
    const origins = new Set(
      options.Origins.length > 0 ? options.Origins.map((o) => originOf(o)?.origin ?? o) : [`https://${rpId}`],
    );
    if (deps.isDevelopment && request && hostWithinRpId(request.hostname, rpId)) origins.add(request.origin);
    return { rpId, origins: [...origins] };
  }

  async function issue(record: Challenge): Promise<string> {
    const challengeId = randomBytes(18).toString('base64url');
    await challenges.put(`${KEY}${challengeId}`, record, ttlMs);
    return challengeId;
  }

  /** Takes the challenge (whatever follows: single use) and answers it when it is of `flow` and `principal`. */
  async function take(challengeId: string, flow: Flow, principal?: UserPrincipal): Promise<Challenge> {
    const record = await challenges.take<Challenge & { expiresAt: number }>(`${KEY}${challengeId}`);
    if (!record || record.flow !== flow) throw challengeInvalid();
    if (principal && (record.userId !== principal.userId || record.sessionId !== principal.sessionId))
      throw challengeInvalid();
    return record;
  }

  async function authenticationOptions(
    rpId: string,
    allow: readonly PasskeyRow[],
  ): Promise<WebAuthn.PublicKeyCredentialRequestOptionsJSON> {
    return (await loadLibrary()).generateAuthenticationOptions({
      rpID: rpId,
      allowCredentials: allow.map((p) => ({ id: p.credentialId, ...transportsOf(p) })),
      userVerification: options.UserVerification,
      timeout: ttlMs,
    });
  }

  /** The stored credential an assertion names, or 40035. */
  async function credentialOf(response: AuthenticationResponse): Promise<PasskeyRow> {
    const id = typeof response?.id === 'string' ? response.id : '';
    if (!id || id.length > MAX_CREDENTIAL_ID_LENGTH) throw verificationFailed();
    const row = await store.byCredentialId(id);
    if (!row) throw verificationFailed();
    return row;
  }

  /**
   * Verifies an assertion of `row` (owned by `user`) against the challenge, counted on the user's second-factor
   * counter; records the use. Answers whether the user was verified.
   */
  async function verifyAssertion(
    user: SysUserRow,
    row: PasskeyRow,
    challenge: Challenge,
    response: AuthenticationResponse,
    client: ClientInfo,
  ): Promise<{ userVerified: boolean }> {
    const attempt = await passwords.secondFactorLock.begin({ userId: user.id });
    return settleAttempt(attempt, async () => {
      const refuse = (reason: string): never => {
        logger.info('Passkey assertion refused.', { userId: user.id, passkeyId: row.id, reason });
        attempt.failed();
        throw verificationFailed();
      };
      let result: WebAuthn.VerifiedAuthenticationResponse | undefined;
      try {
        result = await (await loadLibrary()).verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge.challenge,
          expectedOrigin: challenge.origins,
          expectedRPID: challenge.rpId,
          // Counter 0: the library's counter check runs before the signature's; ours runs after it (file header).
          credential: {
            id: row.credentialId,
            publicKey: Buffer.from(row.publicKey, 'base64url'),
            counter: 0,
            ...transportsOf(row),
          },
          requireUserVerification: requireUv,
        });
      } catch (error) {
        refuse(error instanceof Error ? error.message : String(error));
      }
      if (!result?.verified) return refuse('signature');
      const handle = response.response?.userHandle;
      if (handle && handle !== userHandleText(user.id)) refuse('user handle of another user');
      const next = result.authenticationInfo.newCounter;
      if ((next > 0 || row.signCount > 0) && next <= row.signCount) {
        await passwords.log({
          account: user.account,
          resultCode: PasskeyErrorCode.PasskeyCloneSuspected.code,
          userId: user.id,
          method: 'passkey',
          client,
        });
        logger.warn('Passkey signature counter did not increase: possible cloned authenticator.', {
          userId: user.id,
          passkeyId: row.id,
          stored: row.signCount,
          received: next,
        });
        refuse('counter');
      }
      const recorded = await store.recordUse(row.id, row.signCount, {
        signCount: next,
        backedUp: result.authenticationInfo.credentialBackedUp,
        at: deps.now(),
      });
      // Another assertion with this counter won the race: this one is a replay of the same number.
      if (!recorded && next > 0) refuse('counter raced');
      await attempt.succeeded();
      return { userVerified: result.authenticationInfo.userVerified };
    });
  }

  return {
    enabled,

    async registrationOptions(principal, requestOrigin) {
      await assertEnabled();
      if (!(await deps.reauth.windowOpen(principal))) throw new BusinessError(ErrorCode.ReauthRequired);
      const user = await deps.users.findById(principal.userId);
      if (!user?.enabled) throw new BusinessError(ErrorCode.TokenInvalid);
      const { rpId, origins } = relyingParty(requestOrigin);
      const existing = await store.listOfUser(user.id);
      const created = await (await loadLibrary()).generateRegistrationOptions({
        rpName: options.RpName,
        rpID: rpId,
        userName: user.account,
        userID: userHandle(user.id),
        userDisplayName: user.realName,
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, ...transportsOf(p) })),
        authenticatorSelection: {
          residentKey: 'required',
          requireResidentKey: true,
          userVerification: options.UserVerification,
        },
        supportedAlgorithmIDs: ALGORITHMS,
        timeout: ttlMs,
      });
      const challengeId = await issue({
        flow: 'register',
        challenge: created.challenge,
        rpId,
        origins,
        userId: user.id,
        sessionId: principal.sessionId,
      });
      return { challengeId, options: created };
    },

    async register(principal, input) {
      await assertEnabled();
      const challenge = await take(input.challengeId, 'register', principal);
      let verified: WebAuthn.VerifiedRegistrationResponse;
      try {
        verified = await (await loadLibrary()).verifyRegistrationResponse({
          response: input.response,
          expectedChallenge: challenge.challenge,
          expectedOrigin: challenge.origins,
          expectedRPID: challenge.rpId,
          requireUserVerification: requireUv,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch (error) {
        logger.info('Passkey registration refused.', {
          userId: principal.userId,
          reason: error instanceof Error ? error.message : String(error),
        });
        throw verificationFailed();
      }
      if (!verified.verified) throw verificationFailed();
      const info = verified.registrationInfo;
      const publicKey = Buffer.from(info.credential.publicKey).toString('base64url');
      if (info.credential.id.length > MAX_CREDENTIAL_ID_LENGTH || publicKey.length > MAX_PUBLIC_KEY_LENGTH)
        throw verificationFailed();
      const user = await deps.users.findById(principal.userId);
      if (!user?.enabled) throw new BusinessError(ErrorCode.TokenInvalid);
      const name = passkeyName(input.name);
      const transports = (input.response.response?.transports ?? info.credential.transports ?? [])
        .filter((t) => typeof t === 'string' && /^[a-z-]{1,32}$/.test(t))
        .join(',');
      const id = await uniqueOr(
        () =>
          store.insert({
            userId: user.id,
            credentialId: info.credential.id,
            publicKey,
            signCount: info.credential.counter,
            transports: transports.slice(0, 255) || null,
            aaguid: info.aaguid || null,
            name,
            backedUp: info.credentialBackedUp,
            createTime: deps.now(),
          }),
        // The credential is registered already (to this user: excludeCredentials asked the authenticator not to).
        verificationFailed,
      );
      return { id, name };
    },

    async loginOptions(requestOrigin) {
      await assertEnabled();
      const { rpId, origins } = relyingParty(requestOrigin);
      // Discoverable credentials: no account is asked for, so the answer tells nothing about accounts.
      const created = await authenticationOptions(rpId, []);
      const challengeId = await issue({
        flow: 'login',
        challenge: created.challenge,
        rpId,
        origins,
        userId: null,
        sessionId: null,
      });
      return { challengeId, options: created };
    },

    async login(input, client) {
      let user: SysUserRow | undefined;
      try {
        await assertEnabled();
        const challenge = await take(input.challengeId, 'login');
        const row = await credentialOf(input.response);
        user = await deps.users.findById(row.userId);
        if (!user) throw verificationFailed();
        const owner = user;
        // The locks of a password login: the password counter and the second-factor counter (40004).
        await passwords.lock.assertOpen({ userId: owner.id });
        await passwords.secondFactorLock.assertOpen({ userId: owner.id });
        const { userVerified } = await verifyAssertion(owner, row, challenge, input.response, client);
        // Told only after a right credential, as after a right password.
        if (!owner.enabled) throw new BusinessError(ErrorCode.AccountDisabled);
        // Without user verification the passkey stands for the password: the second-factor step follows.
        if (!userVerified)
          await deps.loginSteps.hooks.afterPassword(owner, { account: owner.account, password: '', client });
        const issued = await deps.auth.openSession(owner, client, {
          isMfa: userVerified,
          // A removal of the passkey between the check and the session row ends the session (see issue.ts).
          credential: {
            holds: async () => (await store.ofUser(owner.id, row.id)) !== undefined,
            refusal: verificationFailed(),
            revokeReason: () => 'mfa-cleared',
          },
        });
        await passwords.log({
          account: owner.account,
          resultCode: 0,
          userId: owner.id,
          method: 'passkey',
          client,
        });
        return issued;
      } catch (error) {
        await passwords.log({
          account: user?.account ?? '',
          resultCode: isBusinessError(error) ? error.code : ErrorCode.SystemError.code,
          userId: user?.id ?? null,
          method: 'passkey',
          client,
        });
        throw error;
      }
    },

    async reauthOptions(principal, requestOrigin) {
      await assertEnabled();
      const { rpId, origins } = relyingParty(requestOrigin);
      const created = await authenticationOptions(rpId, await store.listOfUser(principal.userId));
      const challengeId = await issue({
        flow: 'reauth',
        challenge: created.challenge,
        rpId,
        origins,
        userId: principal.userId,
        sessionId: principal.sessionId,
      });
      return { challengeId, options: created };
    },

    async reauth(principal, input, client) {
      const user = await deps.users.findById(principal.userId);
      if (!user?.enabled) throw new BusinessError(ErrorCode.TokenInvalid);
      try {
        await assertEnabled();
        const challenge = await take(input.challengeId, 'reauth', principal);
        const row = await credentialOf(input.response);
        if (row.userId !== user.id) {
          // Another user's credential: a failure of the caller's, as a wrong code would be.
          const attempt = await passwords.secondFactorLock.begin({ userId: user.id });
          await settleAttempt(attempt, async () => {
            attempt.failed();
          });
          throw verificationFailed();
        }
        await verifyAssertion(user, row, challenge, input.response, client);
      } catch (error) {
        await passwords.log({
          account: user.account,
          resultCode: isBusinessError(error) ? error.code : ErrorCode.SystemError.code,
          userId: user.id,
          method: 'passkey',
          client,
        });
        throw error;
      }
      return deps.reauth.grant(principal);
    },

    async list(userId) {
      return (await store.listOfUser(userId)).map(view);
    },

    async rename(userId, id, name) {
      if (!(await store.rename(userId, id, passkeyName(name)))) {
        // MySQL counts changed rows only: the same name again is no missing row.
        if (!(await store.ofUser(userId, id))) throw notFound();
      }
    },

    async remove(userId, id) {
      if (!(await store.remove(userId, id))) throw notFound();
    },

    async removeByAdmin(userId, id, actorSessionId) {
      if (!(await store.remove(userId, id))) throw notFound();
      await deps.sessions.revokeUserSessions(
        userId,
        'mfa-cleared',
        actorSessionId ? { exceptSessionId: actorSessionId } : undefined,
      );
    },

    removeAll: (userId) => store.removeAllOfUser(userId),
    probe: () => store.probe(),
  };
}

function transportsOf(row: PasskeyRow): { transports?: WebAuthn.AuthenticatorTransportFuture[] } {
  if (!row.transports) return {};
  return { transports: row.transports.split(',') as WebAuthn.AuthenticatorTransportFuture[] };
}
