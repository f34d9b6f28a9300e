/**
 * The error codes of module `Passkey` (40035–40039, the next free numbers of the auth segment). Numbers are part
 * of the public contract: never renumber a member. The set keeps the kernel catalogue's source name
 * (`ErrorCode`), as ExternalAuth's does; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const auth = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.auth.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

export const PasskeyErrorCode = defineErrorCodes('ErrorCode', {
  /**
   * The assertion or attestation was refused: wrong origin, RP id, challenge or signature, user verification
   * missing where required, an unknown credential, a credential of another user, a counter that went back. One
   * code for all, so an answer tells an attacker nothing about which check failed; assertions count on the
   * second-factor counter.
   */
  PasskeyVerificationFailed: auth('PasskeyVerificationFailed', 40035),
  /** The challenge is unknown, expired, already used, or belongs to another flow, user or session. */
  PasskeyChallengeInvalid: auth('PasskeyChallengeInvalid', 40036),
  /** Passkeys are off (`sys.security.passkey.enabled` and the deploy floor `Service:Security:Passkey:Enabled`). */
  PasskeyDisabled: auth('PasskeyDisabled', 40037),
  /** No such passkey of this user (another user's id answers the same). */
  PasskeyNotFound: auth('PasskeyNotFound', 40038),
  /**
   * Written to the login log (never answered: the client gets 40035) when a correctly signed assertion carries a
   * signature counter that did not go up: the credential may have been cloned.
   */
  PasskeyCloneSuspected: auth('PasskeyCloneSuspected', 40039),
});
