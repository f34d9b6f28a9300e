/** `GET /api/v1/sys/monitor/server`: a one-shot server snapshot (CPU sampled over 500 ms). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { MonitorRouteDeps } from '../services.js';

export const ServerSnapshotSchema = z
  .object({
    cpuPercent: z.number(),
    memory: z.object({ processRssBytes: z.number(), totalBytes: z.number(), freeBytes: z.number() }),
    disk: z.object({ path: z.string(), totalBytes: z.number(), freeBytes: z.number() }),
    runtime: z.object({ name: z.string(), version: z.string() }),
    machineName: z.string(),
    osDescription: z.string(),
    processorCount: z.number().int(),
    sampledAt: z.string().openapi({ format: 'date-time' }),
    opLog: z
      .object({
        queued: z.number().int(),
        spilled: z.number().int(),
        replayed: z.number().int(),
        dropped: z.number().int(),
        failing: z.boolean(),
      })
      .openapi({
        description: 'Operation-log writer: rows in memory, waiting in the spill files, replayed, lost.',
      }),
  })
  .openapi('ServerSnapshot');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/monitor/server',
  tags: ['Monitor'],
  summary: 'Server snapshot',
  responses: envelopeResponses(ServerSnapshotSchema),
});

export function register(ctx: RegisterContext, d: Pick<MonitorRouteDeps, 'monitor'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Monitor' }, async (c) => {
    return c.json(ok(await d.monitor()), 200);
  });
}
