/**
 * Reference samples (contract §9): how a consumer adds its own error codes, routes with every authentication
 * marker, and the seed buttons for its permission routes. Mounted when `Service:Samples:Enabled` is true
 * (default: Development only); the code set and the seed buttons are always registered so the catalog and the
 * permission consistency stay the same whether or not the routes are mounted.
 */
import {
  type AppContext,
  BusinessError,
  createRoute,
  defineErrorCodes,
  envelopeResponses,
  ok,
  type RegisterContext,
  registerRoute,
  requirePrincipal,
  type SeedMenu,
  z,
} from '@svc/server';

/** A consumer code set in the consumer segment (60000 and up). */
export const SampleErrorCode = defineErrorCodes('SampleErrorCode', {
  SampleFailure: { code: 60001, msgKey: 'sample.failure' },
});

const MachineSchema = z.object({ name: z.string(), userId: z.number().int().nullable() });

const routes = {
  machine: createRoute({
    method: 'get',
    path: '/api/v1/sample/machine',
    tags: ['Samples'],
    summary: 'API key only: the key principal',
    responses: envelopeResponses(MachineSchema),
  }),
  machinePerm: createRoute({
    method: 'get',
    path: '/api/v1/sample/machine/perm',
    tags: ['Samples'],
    summary: 'API key bound to a user holding this permission',
    responses: envelopeResponses(MachineSchema),
  }),
  either: createRoute({
    method: 'get',
    path: '/api/v1/sample/either',
    tags: ['Samples'],
    summary: 'Bearer or API key',
    responses: envelopeResponses(z.object({ scheme: z.enum(['Bearer', 'ApiKey']), name: z.string() })),
  }),
  bare: createRoute({
    method: 'get',
    path: '/api/v1/sample/bare',
    tags: ['Samples'],
    summary: 'Skip-envelope: the bare payload on success',
    responses: {
      200: {
        description: 'Bare payload.',
        content: { 'application/json': { schema: z.object({ value: z.number() }) } },
      },
    },
  }),
  sensitive: createRoute({
    method: 'post',
    path: '/api/v1/sample/sensitive',
    tags: ['Samples'],
    summary: 'Permission plus re-authentication',
    responses: envelopeResponses(z.object({ ok: z.literal(true) })),
  }),
  fail: createRoute({
    method: 'get',
    path: '/api/v1/sample/fail',
    tags: ['Samples'],
    summary: 'Throws the consumer code 60001',
    responses: envelopeResponses(z.null()),
  }),
  crash: createRoute({
    method: 'get',
    path: '/api/v1/sample/crash',
    tags: ['Samples'],
    summary: 'Throws an unexpected error (HTTP 500, exception log row)',
    responses: envelopeResponses(z.null()),
  }),
};

/** Seed buttons for the samples' permission routes (a consumer adds its own the same way). */
export const sampleSeedMenus: readonly SeedMenu[] = [
  {
    id: 9000,
    type: 'catalog',
    title: 'Samples',
    path: '/samples',
    icon: 'experiment',
    hidden: true,
    children: [
      {
        id: 9001,
        type: 'button',
        title: 'Machine with permission',
        permissions: ['GET:/api/v1/sample/machine/perm'],
      },
      { id: 9002, type: 'button', title: 'Sensitive write', permissions: ['POST:/api/v1/sample/sensitive'] },
    ],
  },
];

export function registerSamples(ctx: RegisterContext): void {
  const machine = (c: AppContext) => {
    const p = requirePrincipal(c);
    return p.kind === 'apikey' ? { name: p.name, userId: p.userId } : { name: p.account, userId: p.userId };
  };
  registerRoute(ctx, routes.machine, { auth: 'apikey' }, (c) => c.json(ok(machine(c)), 200));
  registerRoute(ctx, routes.machinePerm, { auth: 'apikey-permission' }, (c) => c.json(ok(machine(c)), 200));
  registerRoute(ctx, routes.either, { auth: 'either' }, (c) => {
    const p = requirePrincipal(c);
    const body =
      p.kind === 'apikey'
        ? { scheme: 'ApiKey' as const, name: p.name }
        : { scheme: 'Bearer' as const, name: p.account };
    return c.json(ok(body), 200);
  });
  registerRoute(ctx, routes.bare, { auth: 'authenticated', skipEnvelope: true }, (c) =>
    c.json({ value: 42 }, 200),
  );
  registerRoute(ctx, routes.sensitive, { auth: 'permission', reauth: true }, (c) =>
    c.json(ok({ ok: true as const }), 200),
  );
  registerRoute(ctx, routes.fail, { auth: 'anonymous' }, () => {
    throw new BusinessError(SampleErrorCode.SampleFailure);
  });
  registerRoute(ctx, routes.crash, { auth: 'anonymous' }, () => {
    throw new Error('Sample crash: this message must reach the exception log, never the client.');
  });
}
