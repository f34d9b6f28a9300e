/**
 * Shapes of the scheduled-job routes (`/api/v1/sys/job`): camelCase, ISO-8601 UTC times, instants within the
 * years 1970 to 9999 (every dialect stores those; PostgreSQL refuses year 0 and MariaDB's DATETIME starts at
 * 1000), and job props with their secrets masked.
 */
import { z } from '@hono/zod-openapi';
import type { SysJobLogRow, SysJobRow } from '@svc/data';
import { type Dashboard, type JobActor, type JobInput, maskPropsJson, storedCron } from '@svc/modules';
import type { Context } from 'hono';
import type { AppEnv } from '../../../context.js';

const time = z.string().openapi({ format: 'date-time' });
const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
/** The first and last instants a job time may take. */
export const EARLIEST_JOB_TIME = new Date('1970-01-01T00:00:00.000Z');
export const LATEST_JOB_TIME = new Date('9999-12-31T23:59:59.999Z');
const instantInput = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine(
    (d) => d.getTime() >= EARLIEST_JOB_TIME.getTime() && d.getTime() <= LATEST_JOB_TIME.getTime(),
    'must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
  )
  .openapi({ type: 'string', format: 'date-time' });

/** The caller as the job service sees it (a key bound to a super administrator is not one: SQL jobs). */
export function jobActorOf(c: Context<AppEnv>): JobActor {
  const principal = c.get('principal');
  return {
    userId: principal?.userId ?? null,
    isSuperAdmin: principal?.kind === 'user' && principal.isSuperAdmin,
  };
}

export const HandlerKindSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]).openapi({
  description: '1 compiled (registered in code), 2 HTTP, 3 SQL.',
});
export const TriggerKindSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]).openapi({
  description: '1 cron with seconds, 2 fixed interval (>= 5 s), 3 one-shot.',
});
export const JobStatusSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).openapi({
  description: '1 Ready, 2 Paused, 3 Completed, 4 Panic.',
});
export const RunStatusSchema = z.enum(['running', 'success', 'failed', 'timeout', 'killed', 'skipped']);
export const FireModeSchema = z.enum(['schedule', 'manual', 'catch-up', 'misfire-skip']);

const jobFields = {
  name: z.string().trim().min(1).max(128),
  handlerKind: HandlerKindSchema,
  handlerName: z.string().trim().max(128).default(''),
  propsJson: z.string().max(65_536).nullable().optional().openapi({
    description: 'Handler props (JSON). `***` where a secret is stored keeps it (answers mask secrets).',
  }),
  triggerKind: TriggerKindSchema,
  cronExpression: z.string().trim().max(128).nullable().optional(),
  intervalSeconds: z.number().int().min(1).max(31_622_400).nullable().optional(),
  oneShotTime: instantInput.nullable().optional(),
  startTime: instantInput.nullable().optional(),
  endTime: instantInput.nullable().optional(),
  misfireStrategy: z.enum(['skip', 'fire-once']).optional(),
  concurrencyMode: z.enum(['serial-skip', 'parallel']).optional(),
  timeoutSeconds: z.number().int().min(0).max(86_400).optional(),
  retryCount: z.number().int().min(0).max(10).optional(),
  retryIntervalSeconds: z.number().int().min(0).max(3600).optional(),
  failAlertThreshold: z.number().int().min(0).max(1000).optional(),
  alertByNotice: z.boolean().optional(),
  remark: z.string().max(500).nullable().optional(),
};

export const JobUpdateSchema = z.object(jobFields).strict().openapi('JobUpdate');
export const JobCreateSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and . _ : - only'),
    ...jobFields,
  })
  .strict()
  .openapi('JobCreate');

/** The body as the service takes it. */
export const jobInput = (body: z.infer<typeof JobUpdateSchema>): JobInput => body;

export const JobRowSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    handlerKind: HandlerKindSchema,
    handlerName: z.string(),
    propsJson: z.string().nullable().openapi({
      description:
        'Handler props (JSON) with every secret as `***`: header values (but harmless ones such as Accept), the URL password, properties with sensitive names.',
    }),
    triggerKind: TriggerKindSchema,
    cronExpression: z.string().nullable(),
    intervalSeconds: z.number().int().nullable(),
    oneShotTime: time.nullable(),
    startTime: time.nullable(),
    endTime: time.nullable(),
    misfireStrategy: z.enum(['skip', 'fire-once']),
    concurrencyMode: z.enum(['serial-skip', 'parallel']),
    status: JobStatusSchema,
    nextRunTime: time.nullable(),
    lastRunTime: time.nullable(),
    numberOfRuns: z.number().int(),
    numberOfErrors: z.number().int(),
    consecutiveErrors: z.number().int(),
    timeoutSeconds: z.number().int(),
    retryCount: z.number().int(),
    retryIntervalSeconds: z.number().int(),
    failAlertThreshold: z.number().int(),
    alertByNotice: z.boolean(),
    isSystem: z.boolean(),
    remark: z.string().nullable(),
    createTime: time,
    updateTime: time.nullable(),
  })
  .openapi('JobRow');

export const jobDto = (r: SysJobRow): z.infer<typeof JobRowSchema> => ({
  id: r.id,
  code: r.code,
  name: r.name,
  handlerKind: r.handlerKind,
  handlerName: r.handlerName,
  propsJson: maskPropsJson(r.handlerKind, r.propsJson),
  triggerKind: r.triggerKind,
  // Days numbered before Quartz numbering are shown by name, so saving the job again keeps its schedule.
  cronExpression: r.cronExpression === null ? null : storedCron(r.cronExpression),
  intervalSeconds: r.intervalSeconds,
  oneShotTime: isoOrNull(r.oneShotTime),
  startTime: isoOrNull(r.startTime),
  endTime: isoOrNull(r.endTime),
  misfireStrategy: r.misfireStrategy,
  concurrencyMode: r.concurrencyMode,
  status: r.status,
  nextRunTime: isoOrNull(r.nextRunTime),
  lastRunTime: isoOrNull(r.lastRunTime),
  numberOfRuns: r.numberOfRuns,
  numberOfErrors: r.numberOfErrors,
  consecutiveErrors: r.consecutiveErrors,
  timeoutSeconds: r.timeoutSeconds,
  retryCount: r.retryCount,
  retryIntervalSeconds: r.retryIntervalSeconds,
  failAlertThreshold: r.failAlertThreshold,
  alertByNotice: r.alertByNotice,
  isSystem: r.isSystem,
  remark: r.remark,
  createTime: iso(r.createTime),
  updateTime: isoOrNull(r.updateTime),
});

export const JobLogRowSchema = z
  .object({
    id: z.number().int(),
    jobId: z.number().int(),
    jobName: z.string(),
    fireInstanceId: z.string(),
    retryIndex: z.number().int(),
    fireMode: FireModeSchema,
    scheduledTime: time,
    startTime: time,
    endTime: time.nullable(),
    runStatus: RunStatusSchema,
    elapsedMs: z.number().int(),
    nodeName: z.string(),
    killRequested: z.boolean(),
    messageText: z.string().nullable(),
    errorText: z.string().nullable(),
  })
  .openapi('JobLogRow');

export const jobLogDto = ({ serialClaim: _claim, ...r }: SysJobLogRow): z.infer<typeof JobLogRowSchema> => ({
  ...r,
  scheduledTime: iso(r.scheduledTime),
  startTime: iso(r.startTime),
  endTime: isoOrNull(r.endTime),
});

export const DashboardSchema = z
  .object({
    today: z.object({ success: z.number().int(), failed: z.number().int() }),
    inFlight: z.array(
      z.object({
        logId: z.number().int(),
        jobId: z.number().int(),
        jobName: z.string(),
        nodeName: z.string(),
        startTime: time,
      }),
    ),
    statusCounts: z.object({
      ready: z.number().int(),
      paused: z.number().int(),
      completed: z.number().int(),
      panic: z.number().int(),
    }),
    trend: z.array(z.object({ date: z.string(), success: z.number().int(), failed: z.number().int() })),
    upcoming: z.array(
      z.object({ jobId: z.number().int(), code: z.string(), name: z.string(), nextRunTime: time }),
    ),
    nodes: z.array(z.object({ nodeName: z.string(), lastSeen: time.nullable(), current: z.boolean() })),
  })
  .openapi('JobDashboard');

export const dashboardDto = (d: Dashboard): z.infer<typeof DashboardSchema> => ({
  today: d.today,
  inFlight: d.inFlight.map((r) => ({ ...r, startTime: iso(r.startTime) })),
  statusCounts: d.statusCounts,
  trend: d.trend,
  upcoming: d.upcoming.map((u) => ({ ...u, nextRunTime: iso(u.nextRunTime) })),
  nodes: d.nodes.map((n) => ({ ...n, lastSeen: isoOrNull(n.lastSeen) })),
});
