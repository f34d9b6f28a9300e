/**
 * Module Passkey's routes as the console calls them, in one place: the login and re-authentication ceremonies,
 * the personal list and the administrator's. Each call answers its data or throws an `ApiError` (`unwrap`). The
 * ceremony options go to the browser as the service made them (`@simplewebauthn/server`'s JSON options).
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import type { components } from '../api/schema.js';

export type PasskeyRow = components['schemas']['Passkey'];
export type AuthenticationResponse = components['schemas']['PasskeyAuthenticationResponse'];
export type RegistrationResponse = components['schemas']['PasskeyRegistrationResponse'];
export type LoginOutput = components['schemas']['LoginOutput'];

/** A ceremony's start: the challenge's id (sent back with the answer) and the options for the browser. */
export interface Ceremony<Options> {
  challengeId: string;
  options: Options;
}
export type RequestCeremony = Ceremony<PublicKeyCredentialRequestOptionsJSON>;
export type CreationCeremony = Ceremony<PublicKeyCredentialCreationOptionsJSON>;

/** The service's options are the JSON options of the WebAuthn spec; the contract types them as an object. */
const asRequest = (c: { challengeId: string; options: object }): RequestCeremony => ({
  challengeId: c.challengeId,
  options: c.options as PublicKeyCredentialRequestOptionsJSON,
});
const asCreation = (c: { challengeId: string; options: object }): CreationCeremony => ({
  challengeId: c.challengeId,
  options: c.options as PublicKeyCredentialCreationOptionsJSON,
});

export interface PasskeyApi {
  /** Options of a passwordless login (discoverable credentials: no account is named). */
  loginOptions(): Promise<RequestCeremony>;
  login(challengeId: string, response: AuthenticationResponse): Promise<LoginOutput>;
  /** Options of a re-authentication with one of the caller's passkeys. */
  reauthOptions(): Promise<RequestCeremony>;
  reauth(challengeId: string, response: AuthenticationResponse): Promise<void>;
  /** Options of a new passkey (needs a recent re-authentication: 40024 opens the dialog). */
  registrationOptions(): Promise<CreationCeremony>;
  register(
    challengeId: string,
    response: RegistrationResponse,
    name: string,
  ): Promise<{ id: number; name: string }>;
  list(): Promise<PasskeyRow[]>;
  rename(id: number, name: string): Promise<void>;
  remove(id: number): Promise<void>;
  /** An administrator's view of a user's passkeys. */
  listOfUser(userId: number): Promise<PasskeyRow[]>;
  removeOfUser(userId: number, passkeyId: number): Promise<void>;
}

export function passkeyApi(api: ApiClient): PasskeyApi {
  return {
    loginOptions: async () => asRequest(unwrap(await api.POST('/api/v1/auth/passkey/options'))),
    login: async (challengeId, response) =>
      unwrap(await api.POST('/api/v1/auth/passkey/login', { body: { challengeId, response } })),
    reauthOptions: async () => asRequest(unwrap(await api.POST('/api/v1/auth/reauth/passkey/options'))),
    reauth: async (challengeId, response) => {
      unwrap(await api.POST('/api/v1/auth/reauth', { body: { method: 'passkey', challengeId, response } }));
    },
    registrationOptions: async () => asCreation(unwrap(await api.POST('/api/v1/personal/passkeys/options'))),
    register: async (challengeId, response, name) =>
      unwrap(
        await api.POST('/api/v1/personal/passkeys', {
          body: { challengeId, response, ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      ),
    list: async () => unwrap(await api.GET('/api/v1/personal/passkeys')),
    rename: async (id, name) => {
      unwrap(await api.PUT('/api/v1/personal/passkeys/{id}', { params: { path: { id } }, body: { name } }));
    },
    remove: async (id) => {
      unwrap(await api.DELETE('/api/v1/personal/passkeys/{id}', { params: { path: { id } } }));
    },
    listOfUser: async (id) =>
      unwrap(await api.GET('/api/v1/sys/user/{id}/passkeys', { params: { path: { id } } })),
    removeOfUser: async (id, passkeyId) => {
      unwrap(
        await api.DELETE('/api/v1/sys/user/{id}/passkeys/{passkeyId}', {
          params: { path: { id, passkeyId } },
        }),
      );
    },
  };
}
