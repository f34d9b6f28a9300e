/**
 * PROVISIONAL: module Passkey's routes typed by hand from the route table of the spec (modules.md, "Passkeys"),
 * until the server's routes land and `node scripts/gen-api.mjs` writes them into `api/schema.d.ts`. Then this
 * file goes and `api.ts` takes its types from `paths` and `components` like every other call of the console.
 */
type Envelope<T> = { code: number; msgKey: string; data: T; args?: Record<string, unknown> };
type Answer<T> = {
  200: { headers: Record<string, unknown>; content: { 'application/json': Envelope<T> } };
};
type Json<T> = { content: { 'application/json': T } };
type Op<Data, Body = undefined, Path = undefined> = {
  parameters: Path extends undefined
    ? { query?: never; header?: never; path?: never; cookie?: never }
    : { query?: never; header?: never; path: Path; cookie?: never };
  responses: Answer<Data>;
} & (Body extends undefined ? { requestBody?: never } : { requestBody: Json<Body> });
type Route<Ops> = { parameters: { query?: never; header?: never; path?: never; cookie?: never } } & {
  [M in 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace']: M extends keyof Ops
    ? Ops[M]
    : never;
};

export interface PasskeySchema {
  id: number;
  name: string;
  createTime: string;
  lastUsedTime: string | null;
  backedUp: boolean;
}
export type AuthenticationResponseSchema = {
  id: string;
  rawId: string;
  type: 'public-key';
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string;
  } & Record<string, unknown>;
  clientExtensionResults: Record<string, unknown>;
} & Record<string, unknown>;
export type RegistrationResponseSchema = {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports?: string[] } & Record<
    string,
    unknown
  >;
  clientExtensionResults: Record<string, unknown>;
} & Record<string, unknown>;
type CeremonyOptions = { challengeId: string; options: Record<string, unknown> };
type LoginOutput = import('../api/schema.js').components['schemas']['LoginOutput'];

export interface PasskeyPaths {
  '/api/v1/auth/passkey/options': Route<{ post: Op<CeremonyOptions> }>;
  '/api/v1/auth/passkey/login': Route<{
    post: Op<LoginOutput, { challengeId: string; response: AuthenticationResponseSchema }>;
  }>;
  '/api/v1/auth/reauth/passkey/options': Route<{ post: Op<CeremonyOptions> }>;
  '/api/v1/auth/reauth': Route<{
    post: Op<
      { expiresAt: string },
      { method: 'passkey'; challengeId: string; response: AuthenticationResponseSchema }
    >;
  }>;
  '/api/v1/personal/passkeys/options': Route<{ post: Op<CeremonyOptions> }>;
  '/api/v1/personal/passkeys': Route<{
    get: Op<PasskeySchema[]>;
    post: Op<
      { id: number; name: string },
      { challengeId: string; response: RegistrationResponseSchema; name?: string }
    >;
  }>;
  '/api/v1/personal/passkeys/{id}': Route<{
    put: Op<null, { name: string }, { id: number }>;
    delete: Op<null, undefined, { id: number }>;
  }>;
  '/api/v1/sys/user/{id}/passkeys': Route<{ get: Op<PasskeySchema[], undefined, { id: number }> }>;
  '/api/v1/sys/user/{id}/passkeys/{passkeyId}': Route<{
    delete: Op<null, undefined, { id: number; passkeyId: number }>;
  }>;
}
