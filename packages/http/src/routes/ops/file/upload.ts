/**
 * `POST /api/v1/sys/file/upload` (multipart field `file`): checks size (44002), emptiness (44001) and extension
 * (44003), stores under a generated name and answers the row with its signed `viewUrl`. This route is exempt
 * from the 1 MiB JSON body limit; its own limit is `Upload:MaxSizeMb` (see middleware/body-limit.ts).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorOf, type OpsRouteDeps } from '../route-deps.js';

export const UploadPath = '/api/v1/sys/file/upload';

export const UploadResultSchema = z
  .object({
    id: z.number().int(),
    originalName: z.string(),
    sizeBytes: z.number().int(),
    contentType: z.string(),
    viewUrl: z.string(),
  })
  .openapi('UploadResult');

export const route = createRoute({
  method: 'post',
  path: UploadPath,
  tags: ['File'],
  summary: 'Upload a file',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({ file: z.any().openapi({ type: 'string', format: 'binary' }) }),
        },
      },
    },
  },
  responses: envelopeResponses(UploadResultSchema),
});

export function register(ctx: RegisterContext, d: OpsRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new BusinessError(ErrorCode.ParamInvalid, {
        errors: [{ path: 'file', message: 'multipart body expected' }],
      });
    }
    const file = form.file;
    if (!(file instanceof File)) {
      throw new BusinessError(ErrorCode.FileEmpty, {
        errors: [{ path: 'file', message: 'a file is required' }],
      });
    }
    const stored = await d.ops.files.save(file);
    let id: number;
    try {
      id = await d.http.core.repos.files.insert({
        ...stored,
        createTime: d.http.now(),
        createUserId: actorOf(c),
      });
    } catch (error) {
      await d.ops.files.remove(stored.storageKey);
      throw error;
    }
    return c.json(
      ok({
        id,
        originalName: stored.originalName,
        sizeBytes: stored.sizeBytes,
        contentType: stored.contentType,
        viewUrl: d.ops.links.viewUrl(id),
      }),
      200,
    );
  });
}
