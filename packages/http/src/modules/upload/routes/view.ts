/**
 * `GET /api/v1/sys/file/{id}/view?sig=…[&exp=…]` (anonymous): the signature is checked, in constant time,
 * before anything is parsed or looked up (44007); then the file is shown inline when it is a safe image/PDF
 * type, else sent as an attachment.
 */

import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError } from '@svc/kernel';
import { UploadErrorCode } from '@svc/modules';
import { noNul } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { commonErrorResponses, ErrorEnvelopeSchema } from '../../../openapi/schemas.js';
import { sendFile } from '../content.js';
import type { UploadRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/file/{id}/view',
  tags: ['File'],
  summary: 'View a file through a signed link',
  request: {
    params: z.object({
      id: z
        .string()
        .max(32)
        .refine(noNul, 'must not contain NUL')
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
    query: z.object({ sig: z.string().max(128).optional(), exp: z.string().max(16).optional() }),
  },
  responses: {
    200: {
      description: 'The file; failures answer the envelope (44007, 44004).',
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
  d: Pick<UploadRouteDeps, 'fileRows' | 'files' | 'links'>,
): void {
  registerRoute(ctx, route, { auth: 'anonymous', module: 'Upload' }, (c) => {
    const { id } = c.req.valid('param');
    const { sig, exp } = c.req.valid('query');
    d.links.verify(id, sig, exp);
    if (!/^\d{1,15}$/.test(id)) throw new BusinessError(UploadErrorCode.FileNotFound);
    return sendFile(c, d, Number(id), 'view');
  });
}
