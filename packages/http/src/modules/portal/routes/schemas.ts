/** Schemas of the portal routes (module administration and the caller's portal). */
import { z } from '@hono/zod-openapi';
import { code64, dateTime, name64, optText, sortSchema } from '../../../admin/schemas.js';

export const ModuleItemSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    title: z.string(),
    icon: z.string().nullable(),
    defaultRoute: z.string().nullable(),
    apiPrefix: z.string().nullable().openapi({ description: 'UI filter only (`sys`, `biz`).' }),
    sort: z.number().int(),
    enabled: z.boolean(),
    remark: z.string().nullable(),
    builtIn: z.boolean().openapi({ description: 'The protected `system` module.' }),
    createTime: dateTime,
    updateTime: dateTime.nullable(),
  })
  .openapi('ModuleItem');

const moduleFields = {
  code: code64,
  title: name64,
  icon: optText(64),
  defaultRoute: optText(200),
  apiPrefix: optText(64),
  sort: sortSchema.optional(),
  enabled: z.boolean().optional(),
  remark: optText(500),
};

export const CreateModuleSchema = z.object(moduleFields).strict().openapi('CreateModule');

export const UpdateModuleSchema = z
  .object({ ...moduleFields, code: code64.optional(), title: name64.optional() })
  .strict()
  .openapi('UpdateModule');

export const PortalModuleSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    title: z.string(),
    icon: z.string().nullable(),
    defaultRoute: z.string().nullable(),
    apiPrefix: z.string().nullable(),
    sort: z.number().int(),
  })
  .openapi('PortalModule');

export const MyModulesSchema = z
  .object({
    modules: z.array(PortalModuleSchema),
    defaultModuleId: z.number().int().nullable(),
  })
  .openapi('MyModules');
