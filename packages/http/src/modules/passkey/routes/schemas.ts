/**
 * Schemas of the passkey routes. The WebAuthn answers of the browser (`RegistrationResponseJSON`,
 * `AuthenticationResponseJSON`) are checked for shape and size here and verified by @simplewebauthn/server; fields
 * a browser adds (extension results, attachment) pass through to it.
 */
import { z } from '@hono/zod-openapi';
import { MAX_CREDENTIAL_ID_LENGTH } from '@svc/modules';

/** A challenge id of this module: 24 base64url characters; anything longer never reaches the cache. */
export const PasskeyChallengeIdSchema = z.string().min(1).max(64);

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url');

export const AuthenticationResponseSchema = z
  .looseObject({
    id: b64url(MAX_CREDENTIAL_ID_LENGTH),
    rawId: b64url(MAX_CREDENTIAL_ID_LENGTH),
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: b64url(8192),
      authenticatorData: b64url(8192),
      signature: b64url(2048),
      userHandle: z.string().max(512).optional(),
    }),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  })
  .openapi('PasskeyAuthenticationResponse');

export const RegistrationResponseSchema = z
  .looseObject({
    id: b64url(MAX_CREDENTIAL_ID_LENGTH),
    rawId: b64url(MAX_CREDENTIAL_ID_LENGTH),
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: b64url(8192),
      attestationObject: b64url(32_768),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  })
  .openapi('PasskeyRegistrationResponse');

/** `{challengeId, options}`: the options go to `navigator.credentials.create()` or `.get()` as they are. */
export const CeremonyOptionsSchema = z
  .object({
    challengeId: z.string(),
    options: z.record(z.string(), z.unknown()),
  })
  .openapi('PasskeyCeremonyOptions');

export const AssertionBody = z
  .object({ challengeId: PasskeyChallengeIdSchema, response: AuthenticationResponseSchema })
  .strict();

const instant = z.string().openapi({ format: 'date-time' });

export const PasskeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    createTime: instant,
    lastUsedTime: instant.nullable(),
    backedUp: z.boolean(),
  })
  .openapi('Passkey');

export const PasskeyNameSchema = z.string().max(64);

export const passkeyJson = (p: {
  id: number;
  name: string;
  createTime: Date;
  lastUsedTime: Date | null;
  backedUp: boolean;
}) => ({
  id: p.id,
  name: p.name,
  createTime: p.createTime.toISOString(),
  lastUsedTime: p.lastUsedTime?.toISOString() ?? null,
  backedUp: p.backedUp,
});

/** The origin of the request: the RP id and an allowed origin in Development only (the service decides). */
export const requestOrigin = (url: string) => new URL(url).origin;

/** A JSON body, required. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});
