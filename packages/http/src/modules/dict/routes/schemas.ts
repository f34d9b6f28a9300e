/** Row shapes of the dictionary routes (contract §5), as the frontend sees them: camelCase, ISO-8601 times. */
import { z } from '@hono/zod-openapi';
import type { SysDictItemRow, SysDictTypeRow } from '@svc/data';

const time = z.string().openapi({ format: 'date-time' });
const iso = (d: Date) => d.toISOString();

export const DictTypeSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    remark: z.string().nullable(),
    createTime: time,
  })
  .openapi('DictType');

export const dictTypeDto = (r: SysDictTypeRow): z.infer<typeof DictTypeSchema> => ({
  id: r.id,
  code: r.code,
  name: r.name,
  enabled: r.enabled,
  remark: r.remark,
  createTime: iso(r.createTime),
});

export const DictItemSchema = z
  .object({
    id: z.number().int(),
    typeId: z.number().int(),
    typeCode: z.string(),
    label: z.string(),
    value: z.string(),
    sort: z.number().int(),
    enabled: z.boolean(),
    remark: z.string().nullable(),
    createTime: time,
  })
  .openapi('DictItem');

export const dictItemDto = (r: SysDictItemRow): z.infer<typeof DictItemSchema> => ({
  id: r.id,
  typeId: r.typeId,
  typeCode: r.typeCode,
  label: r.label,
  value: r.value,
  sort: r.sort,
  enabled: r.enabled,
  remark: r.remark,
  createTime: iso(r.createTime),
});
