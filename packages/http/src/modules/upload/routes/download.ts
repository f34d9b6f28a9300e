/**
 * `GET /api/v1/sys/file/{id}/download` (bearer): the file as an attachment with its original name; only a file
 * uploaded within the caller's data scope (44004 otherwise, as for a missing one).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { commonErrorResponses, ErrorEnvelopeSchema } from '../../../openapi/schemas.js';
import { scopeOf } from '../../../security/principal.js';
import { sendFile } from '../content.js';
import type { UploadRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/file/{id}/download',
  tags: ['File'],
  summary: 'Download a file',
  request: { params: z.object({ id: idPath }) },
  responses: {
    200: {
      description:
        'The file (attachment); failures answer the envelope (44004, also outside the data scope).',
      content: {
        'application/octet-stream': { schema: z.any().openapi({ type: 'string', format: 'binary' }) },
        'application/json': { schema: ErrorEnvelopeSchema },
      },
    },
    ...commonErrorResponses,
  },
});

export function register(
  ctx: RegisterContext,
  d: Pick<UploadRouteDeps, 'fileRows' | 'files' | 'scopes'>,
): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Upload' }, async (c) =>
    sendFile(c, d, c.req.valid('param').id, 'attachment', await scopeOf(c, d.scopes)),
  );
}
