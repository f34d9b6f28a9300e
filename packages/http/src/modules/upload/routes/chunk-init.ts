/**
 * `POST /api/v1/sys/file/chunk/init`: starts (or resumes) a chunked upload, or answers at once when a file with
 * that hash exists inside the caller's data scope (instant upload: a new file row of the caller).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf, scopeOf } from '../../../security/principal.js';
import type { UploadRouteDeps } from '../services.js';
import { UploadResultSchema } from './upload.js';

export const ChunkInitSchema = z
  .object({
    fileHash: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'SHA-256 in hex')
      .openapi({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }),
    fileName: z.string().trim().min(1).max(255),
    totalSize: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    chunkCount: z.number().int().min(1).max(10_000),
    contentType: z.string().max(128).optional(),
  })
  .strict()
  .openapi('ChunkInit');

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/file/chunk/init',
  tags: ['File'],
  summary: 'Start or resume a chunked upload',
  request: { body: { required: true, content: { 'application/json': { schema: ChunkInitSchema } } } },
  responses: envelopeResponses(
    z
      .object({
        uploaded: z.boolean(),
        file: UploadResultSchema.optional(),
        uploadId: z.string(),
        receivedIndexes: z.array(z.number().int()),
      })
      .openapi('ChunkInitResult'),
  ),
});

export function register(
  ctx: RegisterContext,
  d: Pick<UploadRouteDeps, 'chunks' | 'links' | 'scopes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    const body = c.req.valid('json');
    const result = await d.chunks.init(body, { userId: actorIdOf(c), scope: await scopeOf(c, d.scopes) });
    const file = result.file
      ? {
          id: result.file.id,
          originalName: result.file.originalName,
          sizeBytes: result.file.sizeBytes,
          contentType: result.file.contentType,
          viewUrl: d.links.viewUrl(result.file.id),
        }
      : undefined;
    return c.json(ok({ ...result, file }), 200);
  });
}
