/** Row shape of the config routes (contract §5), as the frontend sees it: camelCase, ISO-8601 times. */
import { z } from '@hono/zod-openapi';
import type { SysConfigRow } from '@svc/data';
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
