/**
 * Re-authentication (spec "Endpoint-level attributes"): `POST /auth/reauth` with the password or a TOTP code
 * opens a window of `ReauthWindowMinutes` for this user in this session only (a cache entry keyed by both, so
 * with Redis every instance sees it and another session of the same user does not). Routes with the
 * re-authentication marker ask {@link ReauthService.satisfied}; it is enforced while the TOTP capability is
 * on (contract §5).
 */
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { ClientInfo, UserPrincipal } from '../auth/principal.js';
import { settleAttempt } from '../lockout.js';
import type { ClockStore } from './clock-store.js';
import { type MfaDeps, recordingRefusal, type SharedChecks } from './common.js';
import { MFA_KEYS } from './constants.js';
import type { TotpEngine } from './totp.js';

/** Body of `POST /auth/reauth` (contract §5). */
export interface ReauthInput {
  method: 'password' | 'totp';
  password?: string | undefined;
  totpCode?: string | undefined;
}

export interface ReauthService {
  /** Checks the credential and opens the window; answers when it ends. */
  open(principal: UserPrincipal, input: ReauthInput, client?: ClientInfo): Promise<{ expiresAt: Date }>;
  /** True when a marked route may proceed: the TOTP capability is off, or the window is open. */
  satisfied(principal: UserPrincipal): Promise<boolean>;
  /**
   * Opens the window for a proof another module checked (a passkey assertion of the caller's own credential,
   * counted on the second-factor counter there); answers when it ends.
   */
  grant(principal: UserPrincipal): Promise<{ expiresAt: Date }>;
  /**
   * True while the window is open, whatever the TOTP capability: for actions that need a re-authentication even
   * while TOTP is off (adding a passkey: a stolen access token must not add a lasting way in).
   */
  windowOpen(principal: UserPrincipal): Promise<boolean>;
}

const windowKey = (p: UserPrincipal) => `${MFA_KEYS.reauth}${p.userId}:${p.sessionId}`;

export function createReauthService(
  deps: MfaDeps,
  parts: { checks: SharedChecks; store: ClockStore; totp: TotpEngine },
): ReauthService {
  const { settings, repositories: repos, passwords } = deps;
  const { checks, store, totp } = parts;

  async function openWindow(principal: UserPrincipal): Promise<{ expiresAt: Date }> {
    const record = await store.put(windowKey(principal), {}, settings.totp.reauthWindowMinutes * 60_000);
    return { expiresAt: new Date(record.expiresAt) };
  }
  const windowOpen = async (principal: UserPrincipal) =>
    (await store.peek(windowKey(principal))) !== undefined;

  return {
    async open(principal, input, client) {
      const user = await repos.users.findById(principal.userId);
      if (!user?.enabled) throw new BusinessError(ErrorCode.TokenInvalid);
      if (input.method === 'password') {
        await passwords.verify({
          who: { userId: user.id },
          password: input.password ?? '',
          record: true,
          client,
        });
      } else {
        if (!(await settings.totpEnabled())) throw new BusinessError(ErrorCode.TotpDisabled);
        if (!user.totpSecret) throw new BusinessError(ErrorCode.TotpNotBound);
        // A wrong code counts on the account's second-factor counter and is a login-log row, as at login.
        await recordingRefusal(
          passwords.log,
          { account: user.account, userId: user.id, method: 'totp', client },
          async () => {
            const attempt = await passwords.secondFactorLock.begin({ userId: user.id });
            await settleAttempt(attempt, async () => {
              const ok = await totp.accept(
                user.id,
                checks.openSeed(user),
                input.totpCode ?? '',
                store.nowMs(),
              );
              if (!ok) {
                attempt.failed();
                throw new BusinessError(ErrorCode.TotpWrong);
              }
              await attempt.succeeded();
            });
          },
        );
      }
      return openWindow(principal);
    },

    grant: openWindow,
    windowOpen,

    async satisfied(principal) {
      if (!(await settings.totpEnabled())) return true;
      return windowOpen(principal);
    },
  };
}
