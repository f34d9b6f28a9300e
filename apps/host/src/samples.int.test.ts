/**
 * The reference host's extension path (contract §9), in process: the samples and their seed buttons keep the
 * permission routes and the seed equal in both directions, and the key + permission sample works for a key
 * bound to a user holding its code.
 */
import { defaultSeedMenus, seedPermissionCodes } from '@svc/data';
import { grantPermissions, startTestServer, type TestServer } from '@svc/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSamples, SampleErrorCode, sampleSeedMenus } from './samples.js';

const BOUND_KEY = 's'.repeat(40);

describe('reference host samples', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      errorCodes: [SampleErrorCode],
      seedMenus: sampleSeedMenus,
      configure: (ctx) => registerSamples(ctx),
      env: {
        Service__Security__ApiKey__Keys__0__Name: 'report-job',
        Service__Security__ApiKey__Keys__0__Key: BOUND_KEY,
        Service__Security__ApiKey__Keys__0__UserId: '2',
      },
    });
  });
  afterAll(() => t?.close());

  it('every permission route, samples included, has a seeded button, and every seeded code a route', () => {
    const seeded = seedPermissionCodes([...defaultSeedMenus, ...sampleSeedMenus]);
    const live = t.server.routes.permissionRoutes().map((r) => r.permissionCode as string);
    expect(live.filter((code) => !seeded.includes(code))).toEqual([]);
    expect(seeded.filter((code) => !live.includes(code))).toEqual([]);
    expect(live).toContain('GET:/api/v1/sample/machine/perm');
    expect(live).toContain('POST:/api/v1/sample/sensitive');
  });

  it('the key + permission sample answers for a key bound to a user holding its code, 401 while that user does not exist', async () => {
    // A key bound to a user who is not (or no longer) an active account is refused like a wrong key (issue 10).
    const denied = await t.request('/api/v1/sample/machine/perm', { headers: { 'x-api-key': BOUND_KEY } });
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { code: number }).code).toBe(40027);
    const userId = await grantPermissions(t, {
      account: 'reporter',
      permissions: ['GET:/api/v1/sample/machine/perm'],
    });
    expect(userId).toBe(2);
    const allowed = await t.request('/api/v1/sample/machine/perm', { headers: { 'x-api-key': BOUND_KEY } });
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as { data: unknown }).data).toEqual({ name: 'report-job', userId: 2 });
  });
});
