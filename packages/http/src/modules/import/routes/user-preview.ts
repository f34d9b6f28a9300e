/**
 * `POST /api/v1/sys/user/import/preview` (multipart `file` .xlsx, optional `mapping` JSON header -> column key):
 * the sheet's rows with per-cell errors. Its body limit is `Service:Import:MaxFileSizeMb`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { ImportErrorCode } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { type ImportRouteDeps, importActorOf } from '../services.js';
import { CellErrorSchema, ImportColumnSchema, ImportRowSchema } from './schemas.js';

export const ImportPreviewPath = '/api/v1/sys/user/import/preview';

export const route = createRoute({
  method: 'post',
  path: ImportPreviewPath,
  tags: ['Import'],
  summary: 'Preview a user import',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: { type: 'string', format: 'binary' },
              mapping: { type: 'string', description: 'JSON object: sheet header -> column key.' },
            },
            required: ['file'],
          },
        },
      },
    },
  },
  responses: envelopeResponses(
    z
      .object({
        headers: z.array(z.string()),
        mapping: z.record(z.string(), z.string()),
        columns: z.array(ImportColumnSchema),
        rows: z.array(ImportRowSchema),
        total: z.number().int(),
        errorRows: z.number().int(),
        columnErrors: z.array(CellErrorSchema),
      })
      .openapi('ImportPreview'),
  ),
});

const invalid = (path: string, message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path, message }] });

function parseMapping(raw: unknown): Record<string, string> | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw invalid('mapping', 'must be a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('mapping', 'must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalid('mapping', 'must be a JSON object');
  const entries = Object.entries(parsed);
  for (const [, v] of entries) {
    if (typeof v !== 'string') throw invalid('mapping', 'values must be column keys');
  }
  // Defined, not assigned: a header named `__proto__` stays an own key instead of setting the prototype.
  return Object.fromEntries(entries);
}

export function register(
  ctx: RegisterContext,
  d: Pick<ImportRouteDeps, 'admin' | 'imports' | 'maxBodyBytes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', bodyLimit: d.maxBodyBytes }, async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw invalid('file', 'multipart body expected');
    }
    const file = form.file;
    if (!(file instanceof File)) throw invalid('file', 'a file is required');
    if (file.size === 0) throw new BusinessError(ImportErrorCode.ImportFileEmpty);
    const preview = await d.imports.preview(
      importActorOf(c, d),
      new Uint8Array(await file.arrayBuffer()),
      parseMapping(form.mapping),
    );
    return c.json(ok(preview), 200);
  });
}
