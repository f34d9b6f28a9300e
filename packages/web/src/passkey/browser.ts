/**
 * The browser's side of a passkey ceremony, over `@simplewebauthn/browser`: the one seam the login controller
 * and the pages use, so their logic is tested with a fake one. `describeFailure` sorts what a ceremony threw:
 * an abort we asked for says nothing, the user closing the browser's dialog (or its timeout) says so, a passkey
 * already on this authenticator says so, anything else is the service's envelope (`ApiError`) or unknown.
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { ApiError } from '../api/envelope.js';
import { messageOf, type Translate } from '../api/messages.js';
import type {
  AuthenticationResponse,
  CreationCeremony,
  RegistrationResponse,
  RequestCeremony,
} from './api.js';

export interface PasskeyBrowser {
  /** WebAuthn is there at all (a secure context with `PublicKeyCredential`). */
  supported(): boolean;
  /** The browser offers passkeys in a field's autofill (conditional mediation). */
  autofillSupported(): Promise<boolean>;
  /** `navigator.credentials.get()`; with `autofill`, waits for the user to pick a passkey in the autofill list. */
  authenticate(ceremony: RequestCeremony, autofill: boolean): Promise<AuthenticationResponse>;
  /** `navigator.credentials.create()`. */
  register(ceremony: CreationCeremony): Promise<RegistrationResponse>;
  /** Ends the ceremony under way (its promise rejects as aborted). */
  cancel(): void;
}

export const browserPasskeys: PasskeyBrowser = {
  supported: () => browserSupportsWebAuthn(),
  autofillSupported: () => browserSupportsWebAuthnAutofill().catch(() => false),
  authenticate: async (ceremony, autofill) => {
    const answer = await startAuthentication({ optionsJSON: ceremony.options, useBrowserAutofill: autofill });
    return {
      ...answer,
      response: { ...answer.response },
      clientExtensionResults: { ...answer.clientExtensionResults },
    };
  },
  register: async (ceremony) => {
    const answer = await startRegistration({ optionsJSON: ceremony.options });
    return {
      ...answer,
      response: { ...answer.response },
      clientExtensionResults: { ...answer.clientExtensionResults },
    };
  },
  cancel: () => WebAuthnAbortService.cancelCeremony(),
};

/** What a failed ceremony means to the user. */
export type CeremonyFailure =
  /** We ended it (another ceremony started, the page was left): nothing to show. */
  | 'aborted'
  /** The user closed the browser's dialog, or it timed out. */
  | 'dismissed'
  /** Registration: this authenticator already holds one of the user's passkeys. */
  | 'exists'
  /** The browser refused the ceremony otherwise (an RP id that does not fit the page, no usable authenticator). */
  | 'browser'
  /** Not a ceremony's failure (the service's envelope, the network, an unknown error). */
  | 'other';

const nameOf = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string'
    ? (e as { name: string }).name
    : undefined;

export function describeFailure(e: unknown): CeremonyFailure {
  if (e instanceof WebAuthnError) {
    if (e.code === 'ERROR_CEREMONY_ABORTED') return 'aborted';
    if (e.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'exists';
    if (nameOf(e.cause) === 'NotAllowedError') return 'dismissed';
    return 'browser';
  }
  if (e instanceof ApiError) return 'other';
  const name = nameOf(e);
  if (name === 'AbortError') return 'aborted';
  if (name === 'NotAllowedError') return 'dismissed';
  if (name === 'InvalidStateError') return 'exists';
  if (name === 'SecurityError' || name === 'NotSupportedError' || name === 'UnknownError') return 'browser';
  return 'other';
}

const FAILURE_KEYS = {
  dismissed: 'passkey.dismissed',
  exists: 'passkey.exists',
  browser: 'passkey.browserFailed',
} as const;

/**
 * The message of a failed passkey step in the current locale: the ceremony's own, or the envelope's msgKey (as
 * every call of the console); undefined for an abort we asked for, which says nothing.
 */
export function passkeyMessage(e: unknown, t: Translate, has: (key: string) => boolean): string | undefined {
  const failure = describeFailure(e);
  if (failure === 'aborted') return undefined;
  return failure === 'other' ? messageOf(e, t, has) : t(FAILURE_KEYS[failure]);
}
