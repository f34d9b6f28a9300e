/**
 * `POST /api/v1/sys/file/chunk/complete`: assembles the chunks, verifies the hash (44006) and answers the file
 * row; a missing chunk answers 44005 with `args.index`. Concurrent completes of one upload answer the same row.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { UploadRouteDeps } from '../services.js';
import { UploadResultSchema } from './upload.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/file/chunk/complete',
  tags: ['File'],
  summary: 'Complete a chunked upload',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z
            .object({
              uploadId: z.string().max(64),
              fileHash: z
                .string()
                .regex(/^[0-9a-fA-F]{64}$/, 'SHA-256 in hex')
                .openapi({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }),
              fileName: z.string().trim().min(1).max(255),
              chunkCount: z.number().int().min(1).max(10_000),
              contentType: z.string().max(128).optional(),
            })
            .strict()
            .openapi('ChunkComplete'),
        },
      },
    },
  },
  responses: envelopeResponses(UploadResultSchema),
});

export function register(ctx: RegisterContext, d: Pick<UploadRouteDeps, 'chunks' | 'links'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    const body = c.req.valid('json');
    const row = await d.chunks.complete({ ...body, totalSize: 0 }, actorIdOf(c));
    return c.json(
      ok({
        id: row.id,
        originalName: row.originalName,
        sizeBytes: row.sizeBytes,
        contentType: row.contentType,
        viewUrl: d.links.viewUrl(row.id),
      }),
      200,
    );
  });
}
