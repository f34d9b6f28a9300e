/**
 * Two instances on one PostgreSQL database and one Redis, a WebSocket client on B: a forced logout made on A
 * reaches the client on B as `force-logout` and its socket closes; a notice published on A reaches its receivers
 * on B as `notice-changed` and not the others (shown by ordering: their first message is a later All notice).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@svc/data/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from './host/listen.js';
import { connectHub } from './modules/realtime/client.contract.js';
import { HubCloseCode } from './modules/realtime/hub.js';
import { bearer, decodeJwt, json, login } from './testing/auth.js';
import {
  grantPermissions,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from './testing/index.js';

describe('realtime across two instances on PostgreSQL with Redis', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let onB: ListeningServer;
  let adminOnA: Record<string, string>;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    database = await createTestDatabase('PostgreSQL');
    const env = {
      Service__Realtime__Enabled: 'true',
      Service__Security__RateLimit__Enabled: 'false',
      Service__Cache__Redis__KeyPrefix: `svc-rt-${Math.random().toString(36).slice(2, 10)}:`,
      // One signing key for both instances, as a deployment has.
      Service__Jwt__SecretKey: 'realtime-suite-signing-key-0123456789abcdef',
    };
    const start = () =>
      startTestServer({
        cache: 'Redis',
        env,
        reuse: { database, contentRoot: mkdtempSync(join(tmpdir(), 'svc-rt-')) },
      });
    // One after the other: the first creates the schema and the seed, the second finds them.
    a = await start();
    b = await start();
    onB = await listen(b.server, b.server.deps.logger, 'http://127.0.0.1:0');
    adminOnA = bearer((await login(a, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    for (const name of ['x_kim', 'x_lee'])
      ids[name] = await grantPermissions(a, { account: name, permissions: [] });
  });

  afterAll(async () => {
    await onB?.shutdown();
    await a?.stop();
    await database?.drop();
  });

  const userToken = async (t: TestServer, account: string) =>
    (await login(t, account, TEST_USER_PASSWORD)).accessToken;

  it('a forced logout on A sends force-logout to the socket on B and closes it', async () => {
    const token = await userToken(b, 'x_kim');
    const client = await connectHub(onB.url, { token });
    const sid = decodeJwt(token).sid as string;
    const res = await json(
      await a.request(`/api/v1/sys/session/${sid}`, { method: 'DELETE', headers: adminOnA }),
    );
    expect(res.code).toBe(0);
    const message = await client.next();
    expect(message).toEqual({ type: 'force-logout', data: { reason: 'forced' } });
    expect((await client.closed).code).toBe(HubCloseCode.SessionEnded);
  });

  it('a notice published on A reaches its receivers on B, and only them', async () => {
    const kim = await connectHub(onB.url, { token: await userToken(b, 'x_kim') });
    const lee = await connectHub(onB.url, { token: await userToken(b, 'x_lee') });
    const publish = async (body: Record<string, unknown>) => {
      const res = await json(
        await a.request('/api/v1/sys/notice', { json: { type: 1, ...body }, headers: adminOnA }),
      );
      expect(res.code).toBe(0);
      return res.data.id as number;
    };
    const forKim = await publish({ title: 'kim only', receiverType: 2, receiverIds: [ids.x_kim] });
    expect(await kim.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: forKim, action: 'published' },
    });
    const forAll = await publish({ title: 'everyone', receiverType: 0 });
    expect(await lee.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: forAll, action: 'published' },
    });
    expect(await kim.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: forAll, action: 'published' },
    });
    kim.close();
    lee.close();
    await Promise.all([kim.closed, lee.closed]);
  });
});
