/** `GET /api/v1/ping`: `{pong, account, at}` for a live session. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { UserPrincipal } from '@svc/security';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { AuthRouteDeps } from '../services.js';

export const PingSchema = z
  .object({ pong: z.literal(true), account: z.string(), at: z.string().openapi({ format: 'date-time' }) })
  .openapi('Ping');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/ping',
  tags: ['Auth'],
  summary: 'Check the session',
  responses: envelopeResponses(PingSchema),
});

export function register(ctx: RegisterContext, { now }: Pick<AuthRouteDeps, 'now'>): void {
  // A function of the user alone: the listener may answer it before Hono (middleware/direct.ts).
  const pong = (user: UserPrincipal) => ({
    pong: true as const,
    account: user.account,
    at: now().toISOString(),
  });
  registerRoute(ctx, route, { auth: 'authenticated', direct: pong }, (c) =>
    c.json(ok(pong(requireUser(c))), 200),
  );
}
