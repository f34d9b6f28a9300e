/**
 * Operation, login and exception logs over HTTP: which requests are recorded (authenticated writes only,
 * consumer routes included), the row (title = route summary, operator, result code, trace id), masking of
 * nested and array values, the 8192 cap keeping valid JSON, synchronous mode, and the clears, which are
 * themselves recorded.
 */
import type { DbType } from '@svc/kernel';
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../app.js';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, json, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';

const configure: NonNullable<CreateAppOptions['configure']> = (ctx) => {
  const echo = createRoute({
    method: 'post',
    path: '/api/v1/test/echo',
    summary: 'Echo for the op-log test',
    request: { body: { content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
    responses: envelopeResponses(z.object({ n: z.number() })),
  });
  registerRoute(ctx, echo, { auth: 'authenticated' }, (c) => c.json(ok({ n: 1 }), 200));
  // A consumer route added with plain Hono (its own guard, outside registerRoute): still recorded.
  const guards =
    ctx.guards?.forRoute({ method: 'POST', path: '/api/v1/test/plain', auth: 'authenticated' }) ?? [];
  for (const guard of guards) ctx.app.use('/api/v1/test/plain', guard);
  ctx.app.post('/api/v1/test/plain', (c) => c.json(ok(null), 200));
  // No request schema: the route is one fused handler (issue 16); its failure must still reach the op log.
  registerRoute(
    ctx,
    createRoute({
      method: 'post',
      path: '/api/v1/test/crash',
      summary: 'Crash for the op-log test',
      responses: envelopeResponses(z.null()),
    }),
    { auth: 'authenticated' },
    () => {
      throw new TypeError('the op-log test crashed on purpose');
    },
  );
  registerRoute(
    ctx,
    createRoute({ method: 'post', path: '/api/v1/test/open', responses: envelopeResponses(z.null()) }),
    { auth: 'anonymous' },
    (c) => c.json(ok(null), 200),
  );
};

export function defineOpLogContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`operation, login and exception logs on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    /** The service clock: the system's, unless a test pins it. */
    let pinned: number | undefined;
    beforeAll(async () => {
      // A configured API-key header that holds no built-in fragment: masked all the same (contract §11).
      t = await startTestServer({
        dbType,
        cache,
        configure,
        env: { Service__Security__ApiKey__HeaderName: 'X-Svc-Auth' },
        now: () => new Date(pinned ?? Date.now()),
      });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    const flushed = () => t.server.deps.core.opLog.drain(5000);
    const ops = async () => {
      await flushed();
      const res = await t.request('/api/v1/sys/log/op/page?size=200', { headers: admin });
      return (await json(res)).data.items as Record<string, unknown>[];
    };

    it('records authenticated writes with title, operator, code and trace id; not reads, not anonymous routes', async () => {
      const before = (await ops()).length;
      const res = await t.request('/api/v1/test/echo?x=1', {
        headers: { ...admin, 'user-agent': 'ua-test' },
        json: { a: 1 },
      });
      expect(res.status).toBe(200);
      await t.request('/api/v1/test/plain', { method: 'POST', headers: admin });
      await t.request('/api/v1/test/open', { method: 'POST' });
      await t.request('/api/v1/sys/config/site');
      await t.request('/api/v1/auth/login', { json: { account: 'superAdmin', password: 'wrong' } });
      const failed = await t.request('/api/v1/sys/dict/item/999999', {
        method: 'PUT',
        headers: admin,
        json: { label: 'x' },
      });
      expect((await json(failed)).code).toBe(43003);
      const rows = await ops();
      expect(rows.length - before).toBe(3);
      const echo = rows.find((r) => r.path === '/api/v1/test/echo');
      expect(echo).toMatchObject({
        title: 'Echo for the op-log test',
        httpMethod: 'POST',
        resultCode: 0,
        success: true,
        operatorName: 'superAdmin',
        userAgent: 'ua-test',
        traceId: res.headers.get('x-trace-id'),
      });
      expect(JSON.parse(echo?.paramJson as string)).toEqual({ query: { x: '1' }, body: { a: 1 } });
      expect(rows.find((r) => r.path === '/api/v1/test/plain')?.title).toBe('POST /api/v1/test/plain');
      const update = rows.find((r) => r.path === '/api/v1/sys/dict/item/999999');
      expect(JSON.parse(update?.paramJson as string)).toEqual({
        params: { id: '999999' },
        body: { label: 'x' },
      });
      expect(rows.find((r) => r.path === '/api/v1/sys/dict/item/999999')).toMatchObject({
        title: 'Update a dictionary item',
        resultCode: 43003,
        success: false,
      });
      expect(rows.some((r) => r.path === '/api/v1/test/open' || r.path === '/api/v1/auth/login')).toBe(false);
    });

    it('records a write whose handler threw, with the error envelope it was answered', async () => {
      const res = await t.request('/api/v1/test/crash', { method: 'POST', headers: admin });
      expect(res.status).toBe(500);
      const body = await json(res);
      expect(body.code).not.toBe(0);
      const row = (await ops()).find((r) => r.path === '/api/v1/test/crash');
      expect(row).toMatchObject({
        title: 'Crash for the op-log test',
        resultCode: body.code,
        success: false,
        traceId: res.headers.get('x-trace-id'),
      });
    });

    it('masks sensitive names case-insensitively in nested objects and arrays', async () => {
      await t.request('/api/v1/test/echo', {
        headers: admin,
        json: {
          account: 'bob',
          NewPassword: 'p1',
          profile: { apiKey: 'k', deep: [{ refresh_token: 't', keep: 'yes' }, { Cookie: 'c' }] },
          items: [{ secretAnswer: 's' }],
        },
      });
      const row = (await ops()).find((r) => (r.paramJson as string | null)?.includes('bob'));
      const params = JSON.parse(row?.paramJson as string);
      expect(params.body).toEqual({
        account: 'bob',
        NewPassword: '***',
        profile: { apiKey: '***', deep: [{ refresh_token: '***', keep: 'yes' }, { Cookie: '***' }] },
        items: [{ secretAnswer: '***' }],
      });
      expect(row?.paramJson).not.toContain('p1');
    });

    it('masks every name of contract §11 in bodies, queries, forms and nested JSON, in any case and spelling', async () => {
      // Each secret value is `SEC-n` (never to be found in a row); each neighbour that must stay readable `KEEP-n`.
      let n = 0;
      const secret = () => `SEC-${++n}`;
      const names = [
        'x-api-key',
        'X-API-KEY',
        'Api_Key',
        'apiKey',
        'myApiKeyValue',
        'X-Svc-Auth',
        'x_svc_auth',
        'xSvcAuth',
        'ticket',
        'TICKET',
        'pendingLink',
        'pending_link',
        'PENDING-LINK',
        'challengeId',
        'challenge_id',
        'bindChallengeId',
        'totpChallenge',
        'smsChallenge',
        'state',
        'State',
        'codeVerifier',
        'code_verifier',
        'nonce',
        'NONCE',
        'clientSecret',
        'client_secret',
        'authorization',
        'Authorization',
        'captchaCode',
        'captcha_code',
        'CAPTCHA-CODE',
        'captchaId',
        'captcha_id',
      ];
      const secrets = () => Object.fromEntries(names.map((name) => [name, secret()]));
      const keep = {
        ticketCount: 'KEEP-1',
        stateName: 'KEEP-2',
        noncense: 'KEEP-3',
        permissionCode: 'KEEP-4',
      };
      const query = new URLSearchParams({ ...secrets(), ...keep }).toString();
      const headers = {
        ...admin,
        'x-api-key': secret(),
        'X-Svc-Auth': secret(),
        cookie: `svc_refresh=${secret()}`,
        'x-case': 'masking-attack',
      };
      const body = {
        ...secrets(),
        ...keep,
        nested: { deeper: [{ ...secrets() }, secrets()], embedded: JSON.stringify(secrets()) },
      };
      expect((await t.request(`/api/v1/test/echo?${query}`, { headers, json: body })).status).toBe(200);
      // The same names with escapes in the JSON text (`tick\u0065t` is `ticket` once parsed).
      const escaped = `{"tick\\u0065t":"${secret()}","x-api\\u002dkey":"${secret()}","marker":"KEEP-5"}`;
      await t.request('/api/v1/test/echo', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: escaped,
      });
      // A form and a multipart body (refused by the route's JSON schema, logged all the same).
      await t.request('/api/v1/test/echo', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...secrets(), marker: 'KEEP-6' }).toString(),
      });
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...secrets(), marker: 'KEEP-7' }))
        form.append(name, value);
      await t.request('/api/v1/test/echo', { method: 'POST', headers, body: form });
      // Built-in routes that take such values: claiming a pending link, a phone code with its captcha.
      await t.request('/api/v1/auth/external/pending-link/claim', {
        headers,
        json: { pendingLink: secret() },
      });
      await t.request('/api/v1/personal/phone/code', {
        headers,
        json: { phone: '+4915112345', currentPassword: secret(), captchaId: secret(), captchaCode: secret() },
      });
      // JSON in a string field past what masking parses (64 KiB), within the body limit: the capped text keeps its
      // start, so it is masked whole.
      const long = JSON.stringify({ token: secret(), pad: 'p'.repeat(70_000) });
      expect(
        (await t.request('/api/v1/test/echo', { headers, json: { marker: 'KEEP-8', propsJson: long } }))
          .status,
      ).toBe(200);
      const rows = (await ops()).filter(
        (r) => r.path === '/api/v1/test/echo' || String(r.path).match(/pending-link|phone\/code/),
      );
      const texts = rows.map((r) => String(r.paramJson));
      for (const marker of ['KEEP-1', 'KEEP-5', 'KEEP-6', 'KEEP-7', 'KEEP-8'])
        expect(
          texts.some((x) => x.includes(marker)),
          marker,
        ).toBe(true);
      expect(texts.join('\n')).not.toMatch(/SEC-\d/);
      const attack = JSON.parse(texts.find((x) => x.includes('KEEP-1') && x.includes('"query"')) as string);
      for (const name of names) {
        expect(attack.query[name], name).toBe('***');
        expect(attack.body[name], name).toBe('***');
        expect(attack.body.nested.deeper[1][name], name).toBe('***');
      }
      expect(attack.body).toMatchObject(keep);
      expect(attack.query).toMatchObject(keep);
      expect(JSON.parse(attack.body.nested.embedded)).toEqual(
        Object.fromEntries(names.map((k) => [k, '***'])),
      );
      expect(rows.some((r) => String(r.path).includes('pending-link'))).toBe(true);
      expect(rows.some((r) => String(r.path).includes('phone/code'))).toBe(true);
    });

    it('masks names a body spells with escapes or with letters that lower-case to one; keeps a clean body as sent', async () => {
      const send = (body: string) =>
        t.request('/api/v1/test/echo', {
          method: 'POST',
          headers: { ...admin, 'content-type': 'application/json' },
          body,
        });
      // "pass\u0077ord" is "password" once parsed; U+212A (Kelvin) lower-cases to "k", so "api\u212Aey" is "apikey".
      expect((await send('{"pass\\u0077ord":"esc-p2","marker":"m1"}')).status).toBe(200);
      expect((await send('{"api\u212Aey":"kelvin-k9","marker":"m2"}')).status).toBe(200);
      expect((await send('{ "marker" : "m3",\n  "n": [ 1, 2 ] }')).status).toBe(200);
      const rows = await ops();
      const of = (marker: string) =>
        rows.find((r) => (r.paramJson as string | null)?.includes(`"${marker}"`))?.paramJson as string;
      expect(JSON.parse(of('m1')).body).toEqual({ password: '***', marker: 'm1' });
      expect(of('m1')).not.toContain('esc-p2');
      expect(JSON.parse(of('m2')).body).toEqual({ 'api\u212Aey': '***', marker: 'm2' });
      expect(of('m2')).not.toContain('kelvin-k9');
      expect(of('m3')).toBe('{"body":{ "marker" : "m3",\n  "n": [ 1, 2 ] }}');
    });

    it('caps parameter text at 8192, keeping its start and original length, as valid JSON', async () => {
      const note = `start-${'x'.repeat(20_000)}`;
      await t.request('/api/v1/test/echo', { headers: admin, json: { note } });
      const row = (await ops()).find((r) => (r.paramJson as string | null)?.includes('start-'));
      const text = row?.paramJson as string;
      expect(text.length).toBeLessThanOrEqual(8192);
      const parsed = JSON.parse(text);
      expect(parsed.truncated).toBe(true);
      expect(parsed.originalLength).toBe(JSON.stringify({ body: { note } }).length);
      expect(parsed.head.startsWith('{"body":{"note":"start-xxx')).toBe(true);
    });

    it('records malformed bodies as <unserializable>', async () => {
      await t.request('/api/v1/test/echo', {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json', 'x-case': 'bad' },
        body: '{"a":',
      });
      const rows = await ops();
      const bad = rows.find((r) => r.resultCode === 48000 && r.path === '/api/v1/test/echo');
      expect(JSON.parse(bad?.paramJson as string)).toEqual({ body: '<unserializable>' });
    });

    it('finds each of identical crashes in the exception log by its trace id at once, the repeats in one row', async () => {
      const { exceptions } = t.server.deps;
      await exceptions.flush?.(true);
      pinned = Date.now() + 60_000;
      try {
        const crash = async () =>
          (await t.request('/api/v1/test/crash', { method: 'POST', headers: admin })).headers.get(
            'x-trace-id',
          ) as string;
        const find = async (traceId: string) =>
          (
            await json(
              await t.request(`/api/v1/sys/log/exception/page?traceId=${traceId}`, { headers: admin }),
            )
          ).data.items as Record<string, unknown>[];
        const ids = [await crash(), await crash()];
        pinned += 30_000;
        ids.push(await crash());
        // No flush, no window end: each id finds its row as soon as its answer arrived.
        expect(await find(ids[0] as string)).toMatchObject([
          { traceId: ids[0], traceIds: [], message: 'the op-log test crashed on purpose' },
        ]);
        for (const id of [ids[1], ids[2], ids[2]?.toUpperCase()]) {
          expect(await find(id as string), id).toMatchObject([
            {
              traceId: ids[1],
              traceIds: [ids[1], ids[2]],
              exceptionType: 'TypeError',
              message: '[repeated 2 times in 60 s] the op-log test crashed on purpose',
            },
          ]);
        }
        // The window's end leaves the folded row as it is; the next crash is a row of its own.
        pinned += 60_000;
        await exceptions.flush?.();
        const next = await crash();
        expect(await find(next)).toMatchObject([{ traceId: next, traceIds: [] }]);
        expect((await find(ids[2] as string))[0]?.message).toMatch(/^\[repeated 2 times/);
        expect(await find((ids[1] as string).slice(0, 16))).toEqual([]);
      } finally {
        pinned = undefined;
        await exceptions.flush?.(true);
        await t.server.database.repos.exceptionLogs.deleteAll();
      }
    });

    it('keeps exception rows with the trace id, pages login logs, and clears are recorded as operations', async () => {
      const { db, tables } = t.server.database.database;
      await t.server.deps.exceptions.record(new TypeError('boom'), {
        method: 'GET',
        path: '/api/v1/x',
        traceId: 'trace-123',
      });
      const exceptions = await json(await t.request('/api/v1/sys/log/exception/page', { headers: admin }));
      expect(exceptions.data.items[0]).toMatchObject({
        traceId: 'trace-123',
        exceptionType: 'TypeError',
        message: 'boom',
      });
      const logins = await json(await t.request('/api/v1/sys/log/login/page', { headers: admin }));
      expect(
        logins.data.items.some(
          (r: { account: string; success: boolean }) => r.account === 'superAdmin' && !r.success,
        ),
      ).toBe(true);
      const cleared = await json(
        await t.request('/api/v1/sys/log/exception', { method: 'DELETE', headers: admin }),
      );
      expect(cleared.data.cleared).toBeGreaterThanOrEqual(1);
      expect((await db.select().from(tables.sysExceptionLog)).length).toBe(0);
      expect(
        (await json(await t.request('/api/v1/sys/log/login', { method: 'DELETE', headers: admin }))).code,
      ).toBe(0);
      await flushed();
      const opClear = await json(await t.request('/api/v1/sys/log/op', { method: 'DELETE', headers: admin }));
      expect(opClear.code).toBe(0);
      const after = await ops();
      expect(after.map((r) => r.title)).toEqual(['Clear the operation log']);
    });

    it('paces the writer by Logging:OpLog:FlushIntervalMs (100 ms unless set); the drain writes what waits', async () => {
      expect(t.server.deps.core.opLog.flushIntervalMs).toBe(100);
      const paced = await startTestServer({
        dbType,
        cache,
        configure,
        env: { Service__Logging__OpLog__FlushIntervalMs: '60000' },
      });
      try {
        const writer = paced.server.deps.core.opLog;
        expect(writer.flushIntervalMs).toBe(60_000);
        const token = bearer((await login(paced, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
        await paced.request('/api/v1/test/echo', { headers: token, json: { n: 1 } });
        await paced.request('/api/v1/test/echo', { headers: token, json: { n: 2 } });
        await writer.drain(5000);
        expect(await paced.server.database.repos.opLogs.count()).toBe(2);
      } finally {
        await paced.close();
      }
    });

    it('writes before answering in sync mode', async () => {
      const sync = await startTestServer({
        dbType,
        cache,
        configure,
        env: { Service__Logging__OpLog__Sync: 'true' },
      });
      try {
        const token = bearer((await login(sync, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
        await sync.request('/api/v1/test/echo', { headers: token, json: { n: 1 } });
        expect(await sync.server.database.repos.opLogs.count()).toBe(1);
      } finally {
        await sync.close();
      }
    });
  });
}
