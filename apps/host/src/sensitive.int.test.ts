/**
 * The host sample `POST /api/v1/sample/sensitive` (permission + re-authentication marker) in-process on a fresh
 * content root: open while TOTP is off, 403/40024 once the runtime switch turns TOTP on, then open again for
 * this session after `POST /api/v1/auth/reauth`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type SvcServer, silentLogger } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSamples, SampleErrorCode, sampleSeedMenus } from './samples.js';

const PASSWORD = 'Host#Pass2345';

describe('reference host: the re-authentication sample', () => {
  let root: string;
  let server: SvcServer;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'svc-host-reauth-'));
    server = await createServer({
      contentRoot: root,
      env: {
        ASPNETCORE_ENVIRONMENT: 'Development',
        Service__Database__ConnectionString: `Data Source=${join(root, 'data', 'svc.db')}`,
        Service__Seed__AdminPassword: PASSWORD,
        Service__Security__Password__Pbkdf2Iterations: '100000',
      },
      logger: silentLogger,
      errorCodes: [SampleErrorCode],
      seedMenus: sampleSeedMenus,
      configure: (ctx) => registerSamples(ctx),
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const call = async (path: string, token: string, body: unknown = {}) => {
    const res = await server.app.request(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { code: number; data: unknown } };
  };
  const setTotp = async (value: string) => {
    await server.database.repos.configs.updateValue('sys.security.totp.enabled', value);
    await server.configStore.invalidate('sys.security.totp.enabled');
  };

  it('asks for re-authentication only while TOTP is on, per session', async () => {
    const res = await server.app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
    });
    const token = ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
    expect(await call('/api/v1/sample/sensitive', token)).toEqual({
      status: 200,
      body: { code: 0, msgKey: 'common.success', data: { ok: true } },
    });

    await setTotp('true');
    const refused = await call('/api/v1/sample/sensitive', token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(40024);

    const reauth = await call('/api/v1/auth/reauth', token, { method: 'password', password: PASSWORD });
    expect(reauth.body.code).toBe(0);
    expect((await call('/api/v1/sample/sensitive', token)).body).toMatchObject({
      code: 0,
      data: { ok: true },
    });
    await setTotp('false');
  });
});
