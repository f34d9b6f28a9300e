/** Row shapes of the log routes (contract §5), as the frontend sees them: camelCase, ISO-8601 times. */
import { z } from '@hono/zod-openapi';
import {
  asLoginMethod,
  LOGIN_METHODS,
  type SysExceptionLogRow,
  type SysLoginLogRow,
  type SysOpLogRow,
} from '@svc/data';

const time = z.string().openapi({ format: 'date-time' });
const iso = (d: Date) => d.toISOString();

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

/** The login methods (`LOGIN_METHODS` of `@svc/data`). */
export const LoginMethodSchema = z.enum(LOGIN_METHODS).openapi('LoginMethod');

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
    method: LoginMethodSchema.nullable().openapi({
      description:
        'How the attempt proved itself; null on rows written before methods were recorded (shown as unknown) and on security events that are no login (refresh-token reuse, CSRF refusals).',
    }),
    createTime: time,
  })
  .openapi('LoginLog');

export const loginLogDto = (r: SysLoginLogRow): z.infer<typeof LoginLogSchema> => ({
  ...r,
  method: asLoginMethod(r.method),
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
