/** `POST /api/v1/personal/passkeys`: verifies the authenticator's attestation (`none` accepted) and stores the passkey. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { RegistrationResponse } from '@svc/modules';
import { defineRoute } from '../../../module/define.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { PasskeyModuleServices } from '../services.js';
import {
  jsonBody,
  PasskeyChallengeIdSchema,
  PasskeyNameSchema,
  RegistrationResponseSchema,
} from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/personal/passkeys',
  tags: ['Personal'],
  summary: 'Add a passkey',
  description:
    '40036 unknown, expired or used challenge, or one of another flow, user or session; 40035 attestation refused.',
  request: jsonBody(
    z
      .object({
        challengeId: PasskeyChallengeIdSchema,
        response: RegistrationResponseSchema,
        name: PasskeyNameSchema.optional(),
      })
      .strict(),
  ),
  responses: envelopeResponses(z.object({ id: z.number().int(), name: z.string() })),
});

export default defineRoute(
  route,
  { auth: 'authenticated' },
  (s: Pick<PasskeyModuleServices, 'passkeys'>) => async (c) => {
    const body = c.req.valid('json');
    // Transports the browser names beyond the library's list pass through; the service keeps known-shaped ones.
    const response = body.response as unknown as RegistrationResponse;
    return c.json(ok(await s.passkeys.register(requireUser(c), { ...body, response })), 200);
  },
);
