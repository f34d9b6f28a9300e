/**
 * The foundation's HTTP contract, written once and run on every dialect by thin runner files
 * (`app.<dialect>.int.test.ts`): first start and seed, restart, probes, envelope and error rules, the
 * contract document and the catalog.
 */
import type { DbType } from '@svc/kernel';
import { BusinessError, defineErrorCodes, verifyPassword } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from './app.js';
import { createRoute, z } from './index.js';
import { registerRoute } from './openapi/register.js';
import { envelopeResponses } from './openapi/schemas.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './testing/index.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field below.
const json = async (res: Response): Promise<any> => res.json();

const SampleErrorCode = defineErrorCodes('SampleErrorCode', {
  SampleFailure: { code: 60001, msgKey: 'sample.failure' },
});

const echo = createRoute({
  method: 'post',
  path: '/api/v1/test/echo',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({ name: z.string().min(2), count: z.number().int().max(10) }),
        },
      },
    },
  },
  responses: envelopeResponses(z.object({ name: z.string(), count: z.number() })),
});

const crash = createRoute({
  method: 'get',
  path: '/api/v1/test/crash',
  responses: envelopeResponses(z.null()),
});
const fail = createRoute({
  method: 'get',
  path: '/api/v1/test/fail',
  responses: envelopeResponses(z.null()),
});

const configure: NonNullable<CreateAppOptions['configure']> = (ctx) => {
  registerRoute(ctx, echo, { auth: 'anonymous' }, (c) => {
    const body = c.req.valid('json');
    return c.json({ code: 0, msgKey: 'common.success', data: body }, 200);
  });
  registerRoute(ctx, crash, { auth: 'anonymous' }, () => {
    throw new TypeError('secret detail that must not leak');
  });
  registerRoute(ctx, fail, { auth: 'anonymous' }, () => {
    throw new BusinessError(SampleErrorCode.SampleFailure, { why: 'sample' });
  });
};

export function defineAppContract(dbType: DbType): void {
  describe(`service on ${dbType}`, () => {
    let t: TestServer;

    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        errorCodes: [SampleErrorCode],
        configure,
        env: { Service__Seed__AdminPassword: '' },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    describe('first start', () => {
      it('seeds one super admin with a generated password shown once in a banner', async () => {
        const banner = t.logs.find((l) => l.includes('FIRST START'));
        expect(banner).toBeDefined();
        const password = /Password: (\S{16})/.exec(banner ?? '')?.[1];
        expect(password).toMatch(/^[^0O1lIo]{16}$/);
        const admin = await t.server.database.repos.users.findByAccount('superAdmin');
        expect(admin?.isSuperAdmin).toBe(true);
        expect(admin?.mustChangePassword).toBe(false);
        expect(await verifyPassword(password as string, admin?.password ?? '')).toBe(true);
        expect(await t.server.database.repos.users.countAll()).toBe(1);
      });

      it('prints no banner and seeds nothing again on restart', async () => {
        const again = await startTestServer({
          dbType,
          reuse: { database: t.database, contentRoot: t.contentRoot },
          env: { Service__Seed__AdminPassword: '' },
        });
        try {
          expect(again.logs.some((l) => l.includes('FIRST START'))).toBe(false);
          expect(again.logs.some((l) => l.includes('Password:'))).toBe(false);
          expect(await again.server.database.repos.users.countAll()).toBe(1);
        } finally {
          await again.stop();
        }
      });
    });

    describe('probes', () => {
      it('answers liveness and readiness as plain Healthy', async () => {
        const live = await t.request('/health');
        expect(live.status).toBe(200);
        expect(await live.text()).toBe('Healthy');
        const ready = await t.request('/health/ready');
        expect(ready.status).toBe(200);
        expect(await ready.text()).toBe('Healthy');
      });
    });

    describe('envelope and errors', () => {
      it('wraps success and carries X-Trace-Id', async () => {
        const res = await t.request('/api/v1/test/echo', { json: { name: 'ab', count: 3 } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
        expect(await json(res)).toEqual({
          code: 0,
          msgKey: 'common.success',
          data: { name: 'ab', count: 3 },
        });
      });

      it('answers validation failures as HTTP 200 with 48000 and args.errors', async () => {
        const res = await t.request('/api/v1/test/echo', { json: { name: 'a', count: 99 } });
        expect(res.status).toBe(200);
        const body = await json(res);
        expect(body).toMatchObject({ code: 48000, msgKey: 'error.param.paramInvalid', data: null });
        expect(body.args.errors.map((e: { path: string }) => e.path).sort()).toEqual(['count', 'name']);
      });

      it('answers malformed JSON with 48000', async () => {
        const res = await t.request('/api/v1/test/echo', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"name": "ab", ',
        });
        expect(res.status).toBe(200);
        expect((await json(res)).code).toBe(48000);
      });

      it('refuses bodies above 1 MiB with 413 and the envelope', async () => {
        const res = await t.request('/api/v1/test/echo', { json: { name: 'x'.repeat(1_100_000), count: 1 } });
        expect(res.status).toBe(413);
        expect((await json(res)).code).toBe(48002);
      });

      it('answers unknown routes with 404 and the envelope', async () => {
        const res = await t.request('/api/v1/nope');
        expect(res.status).toBe(404);
        expect(await json(res)).toMatchObject({ code: 48003, data: null });
      });

      it('renders consumer codes with their msgKey as HTTP 200', async () => {
        const res = await t.request('/api/v1/test/fail');
        expect(res.status).toBe(200);
        expect(await json(res)).toEqual({
          code: 60001,
          msgKey: 'sample.failure',
          data: null,
          args: { why: 'sample' },
        });
      });

      it('answers unhandled errors with 500 and 50000, logs them with the trace id, and leaks nothing', async () => {
        const res = await t.request('/api/v1/test/crash');
        expect(res.status).toBe(500);
        const text = await res.text();
        expect(text).not.toContain('secret detail');
        const body = JSON.parse(text);
        const traceId = res.headers.get('x-trace-id');
        expect(body).toMatchObject({ code: 50000, msgKey: 'error.system.systemError', args: { traceId } });
        const page = await t.server.database.repos.exceptionLogs.page({ current: 1, size: 10 });
        const row = page.items.find((r) => r.traceId === traceId);
        expect(row).toMatchObject({
          httpMethod: 'GET',
          path: '/api/v1/test/crash',
          exceptionType: 'TypeError',
        });
        expect(row?.message).toBe('secret detail that must not leak');
        expect(row?.stackTrace).toContain('TypeError');
      });

      it('does not record business errors in the exception log', async () => {
        const before = (await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total;
        await t.request('/api/v1/test/fail');
        expect((await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total).toBe(
          before,
        );
      });
    });

    describe('catalog and contract', () => {
      it('lists kernel and consumer codes', async () => {
        const res = await t.request('/api/v1/meta/error-codes');
        const body = await json(res);
        expect(body.code).toBe(0);
        expect(body.data).toContainEqual({
          code: 40001,
          name: 'PasswordWrong',
          msgKey: 'error.auth.passwordWrong',
          source: 'ErrorCode',
        });
        expect(body.data).toContainEqual({
          code: 60001,
          name: 'SampleFailure',
          msgKey: 'sample.failure',
          source: 'SampleErrorCode',
        });
      });

      it('publishes the ErrorCode schema as an open int32 with three aligned arrays', async () => {
        const doc = await json(await t.request('/openapi/v1.json'));
        const schema = doc.components.schemas.ErrorCode;
        expect(schema).toMatchObject({ type: 'integer', format: 'int32' });
        expect(schema.enum).toBeUndefined();
        const values: number[] = schema['x-enum-values'];
        expect(schema['x-enum-varnames']).toHaveLength(values.length);
        expect(schema['x-msg-keys']).toHaveLength(values.length);
        const i = values.indexOf(60001);
        expect(schema['x-enum-varnames'][i]).toBe('SampleFailure');
        expect(schema['x-msg-keys'][i]).toBe('sample.failure');
        const op = doc.paths['/api/v1/meta/error-codes'].get;
        expect(op['x-auth']).toBe('anonymous');
        // HTTP 200 is the success envelope or the error envelope; both carry the open ErrorCode.
        const [success, failure] = op.responses['200'].content['application/json'].schema.anyOf;
        expect(success.properties.code.$ref).toBe('#/components/schemas/ErrorCode');
        expect(failure.$ref).toBe('#/components/schemas/ErrorEnvelope');
        expect(doc.components.schemas.ErrorEnvelope.properties.code.$ref).toBe(
          '#/components/schemas/ErrorCode',
        );
      });

      it('serves the Scalar page in Development', async () => {
        const res = await t.request('/scalar');
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('data-url="/openapi/v1.json"');
        // Never framed (it sends requests from the reader's browser), sniffed or sent on as a referrer.
        expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      });
    });
  });

  describe(`start-up gates on ${dbType}`, () => {
    it('in Production refuses to create tables and names the missing ones', async () => {
      const run = startTestServer({
        dbType,
        env: { ASPNETCORE_ENVIRONMENT: 'Production', Service__Jwt__SecretKey: 'p'.repeat(40) },
      });
      await expect(run).rejects.toThrow(/lacks \d+ table\(s\): .*sys_user.*EnableCodeFirstInProduction/);
    });

    it('in Production creates tables when EnableCodeFirstInProduction is true, and hides the contract', async () => {
      const t = await startTestServer({
        dbType,
        env: {
          ASPNETCORE_ENVIRONMENT: 'Production',
          Service__Jwt__SecretKey: 'p'.repeat(40),
          Service__Database__EnableCodeFirstInProduction: 'true',
        },
      });
      try {
        expect((await t.request('/openapi/v1.json')).status).toBe(404);
        expect((await t.request('/scalar')).status).toBe(404);
        expect((await t.request('/health/ready')).status).toBe(200);
      } finally {
        await t.close();
      }
    });

    it('honours Seed:AdminAccount and Seed:AdminPassword and prints no password', async () => {
      const t = await startTestServer({ dbType, env: { Service__Seed__AdminAccount: 'root' } });
      try {
        expect(t.logs.some((l) => l.includes('Password:'))).toBe(false);
        const admin = await t.server.database.repos.users.findByAccount('root');
        expect(await verifyPassword(TEST_ADMIN_PASSWORD, admin?.password ?? '')).toBe(true);
      } finally {
        await t.close();
      }
    });

    it('removes a disabled module from the API and the contract', async () => {
      const t = await startTestServer({ dbType, env: { Service__Api__DisabledModules__0: 'Meta' } });
      try {
        expect((await t.request('/api/v1/meta/error-codes')).status).toBe(404);
        const doc = await json(await t.request('/openapi/v1.json'));
        expect(doc.paths['/api/v1/meta/error-codes']).toBeUndefined();
      } finally {
        await t.close();
      }
    });
  });
}
