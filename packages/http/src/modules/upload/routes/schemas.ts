/** Row shape of the file routes (contract §5), as the frontend sees it: camelCase, ISO-8601 times. */
import { z } from '@hono/zod-openapi';
import type { SysFileRow } from '@svc/data';

const time = z.string().openapi({ format: 'date-time' });
const iso = (d: Date) => d.toISOString();

export const FileRowSchema = z
  .object({
    id: z.number().int(),
    originalName: z.string(),
    sizeBytes: z.number().int(),
    contentType: z.string(),
    ext: z.string(),
    sha256: z.string(),
    viewUrl: z.string(),
    createTime: time,
  })
  .openapi('FileRow');

export const fileDto = (r: SysFileRow, viewUrl: string): z.infer<typeof FileRowSchema> => ({
  id: r.id,
  originalName: r.originalName,
  sizeBytes: r.sizeBytes,
  contentType: r.contentType,
  ext: r.ext,
  sha256: r.sha256,
  viewUrl,
  createTime: iso(r.createTime),
});
