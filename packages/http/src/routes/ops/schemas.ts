/**
 * Row shapes of the operations routes (contract §5), as the frontend sees them: camelCase, ISO-8601 times.
 */
import { z } from '@hono/zod-openapi';
import type {
  SysConfigRow,
  SysDictItemRow,
  SysDictTypeRow,
  SysExceptionLogRow,
  SysFileRow,
  SysLoginLogRow,
  SysOpLogRow,
} from '@svc/data';
import { runtimeKeyDef } from '@svc/kernel';

const time = z.string().openapi({ format: 'date-time' });
const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export const ConfigRowSchema = z
  .object({
    id: z.number().int(),
    key: z.string(),
    value: z.string(),
    valueType: z.enum(['string', 'int', 'bool', 'enum']),
    values: z.array(z.string()).nullable().openapi({
      description:
        "The values a runtime key of type enum takes (the kernel's definition, what a write is checked against); null otherwise.",
    }),
    min: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "A runtime int key's least value; null otherwise." }),
    max: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "A runtime int key's greatest value; null otherwise." }),
    name: z.string(),
    builtIn: z.boolean(),
    remark: z.string().nullable(),
    createTime: time,
    updateTime: time.nullable(),
  })
  .openapi('ConfigRow');

export const configDto = (r: SysConfigRow): z.infer<typeof ConfigRowSchema> => {
  // What the config service checks a write of a runtime key against (config-service.ts, parseRuntimeValue).
  const def = runtimeKeyDef(r.configKey);
  return {
    id: r.id,
    key: r.configKey,
    value: r.configValue,
    valueType: r.valueType,
    values: def?.valueType === 'enum' && def.values ? [...def.values] : null,
    min: def?.valueType === 'int' ? (def.min ?? null) : null,
    max: def?.valueType === 'int' ? (def.max ?? null) : null,
    name: r.name,
    builtIn: r.builtIn,
    remark: r.remark,
    createTime: iso(r.createTime),
    updateTime: isoOrNull(r.updateTime),
  };
};

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

export const OpLogSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    httpMethod: z.string(),
    path: z.string(),
    paramJson: z.string().nullable(),
    resultCode: z.number().int(),
    success: z.boolean(),
    elapsedMs: z.number().int(),
    operatorId: z.number().int().nullable(),
    operatorName: z.string().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    traceId: z.string().nullable(),
    createTime: time,
  })
  .openapi('OpLog');

export const opLogDto = (r: SysOpLogRow): z.infer<typeof OpLogSchema> => ({
  ...r,
  createTime: iso(r.createTime),
});

export const LoginLogSchema = z
  .object({
    id: z.number().int(),
    account: z.string(),
    success: z.boolean(),
    resultCode: z.number().int(),
    userId: z.number().int().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    /** `X-Trace-Id` of the request that wrote the row. */
    traceId: z.string().nullable(),
    createTime: time,
  })
  .openapi('LoginLog');

export const loginLogDto = (r: SysLoginLogRow): z.infer<typeof LoginLogSchema> => ({
  ...r,
  createTime: iso(r.createTime),
});

export const ExceptionLogSchema = z
  .object({
    id: z.number().int(),
    httpMethod: z.string(),
    path: z.string(),
    traceId: z.string(),
    traceIds: z.array(z.string()).openapi({
      description:
        'On a folded row (`[repeated N times in 60 s]`): the trace ids of the identical exceptions it stands for, up to 100 (N counts them all). Empty on the row of one exception.',
    }),
    exceptionType: z.string(),
    message: z.string(),
    stackTrace: z.string().nullable(),
    createTime: time,
  })
  .openapi('ExceptionLog');

export const exceptionLogDto = (r: SysExceptionLogRow): z.infer<typeof ExceptionLogSchema> => ({
  ...r,
  traceIds: r.traceIds?.trim() ? r.traceIds.trim().split(' ') : [],
  createTime: iso(r.createTime),
});

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

/** `{cleared}` of the cache actions and log clears. */
export const ClearedSchema = z.object({ cleared: z.number().int() }).openapi('Cleared');

/** `{id}` of a create. */
export const IdSchema = z.object({ id: z.number().int() }).openapi('CreatedId');
