/**
 * What a failed ceremony tells the user: nothing for an abort the console asked for, "closed or timed out" for
 * the browser's NotAllowedError, "already on this device" for a passkey registered twice, the browser's refusal,
 * and the envelope's msgKey for the service's answer, as every other call of the console.
 */
import { WebAuthnError } from '@simplewebauthn/browser';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/envelope.js';
import { describeFailure, passkeyMessage } from './browser.js';

const domError = (name: string) => Object.assign(new Error(name), { name });
const webAuthn = (code: WebAuthnError['code'], cause = domError('Error')) =>
  new WebAuthnError({ message: code, code, cause });
const messages: Record<string, string> = {
  'passkey.dismissed': 'closed',
  'passkey.exists': 'exists',
  'passkey.browserFailed': 'browser',
  'error.auth.passkeyVerificationFailed': 'refused',
  'error.unknown': 'unknown',
};
const t = (key: string) => messages[key] ?? key;
const has = (key: string) => key in messages;

describe('passkey ceremony failures', () => {
  it('sorts the errors @simplewebauthn/browser and the browser raise', () => {
    expect(describeFailure(webAuthn('ERROR_CEREMONY_ABORTED', domError('AbortError')))).toBe('aborted');
    expect(describeFailure(domError('AbortError'))).toBe('aborted');
    expect(
      describeFailure(webAuthn('ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', domError('NotAllowedError'))),
    ).toBe('dismissed');
    expect(describeFailure(domError('NotAllowedError'))).toBe('dismissed');
    expect(describeFailure(webAuthn('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'))).toBe('exists');
    expect(describeFailure(webAuthn('ERROR_INVALID_RP_ID', domError('SecurityError')))).toBe('browser');
    expect(describeFailure(domError('SecurityError'))).toBe('browser');
    expect(describeFailure(new ApiError(40035, 'error.auth.passkeyVerificationFailed'))).toBe('other');
    expect(describeFailure(new Error('boom'))).toBe('other');
  });

  it('says nothing for an abort, the ceremony’s message otherwise, the envelope’s for the service', () => {
    expect(passkeyMessage(domError('AbortError'), t, has)).toBeUndefined();
    expect(passkeyMessage(domError('NotAllowedError'), t, has)).toBe('closed');
    expect(passkeyMessage(webAuthn('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'), t, has)).toBe('exists');
    expect(passkeyMessage(webAuthn('ERROR_INVALID_DOMAIN'), t, has)).toBe('browser');
    expect(passkeyMessage(new ApiError(40035, 'error.auth.passkeyVerificationFailed'), t, has)).toBe(
      'refused',
    );
    expect(passkeyMessage(new Error('boom'), t, has)).toBe('unknown');
  });
});
