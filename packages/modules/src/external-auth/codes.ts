/**
 * The error codes of module `ExternalAuth` (40029–40034, in the auth segment). Numbers are part of the public contract: never renumber a
 * member. The set keeps the kernel catalogue's source name (`ErrorCode`), so `GET /api/v1/meta/error-codes` lists
 * them as before; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const auth = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.auth.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

export const ExternalAuthErrorCode = defineErrorCodes('ErrorCode', {
  /** External login: unknown provider, or one switched off (`sys.externalauth.{code}.enabled`). */
  ExternalProviderDisabled: auth('ExternalProviderDisabled', 40029),
  /** External login callback: state missing, expired, replayed or not bound to this browser. */
  ExternalStateInvalid: auth('ExternalStateInvalid', 40030),
  /** External login callback: the provider answered an error, or the code exchange / ID token was refused. */
  ExternalLoginFailed: auth('ExternalLoginFailed', 40031),
  /** External login ticket or pending link missing, expired or already used. */
  ExternalTicketInvalid: auth('ExternalTicketInvalid', 40032),
  /** The external identity is bound to another user. */
  ExternalIdentityBound: auth('ExternalIdentityBound', 40033),
  /** The user has no binding at this provider. */
  ExternalBindingNotFound: auth('ExternalBindingNotFound', 40034),
});
