/**
 * Single-process hosting: with `Service:Web:Enabled` the web root is served, unmatched non-API GET paths fall
 * back to `index.html`, and API, probe and docs paths keep their own answers.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/index.js';

describe('frontend in the same process', () => {
  let t: TestServer;
  beforeAll(async () => {
    const web = mkdtempSync(join(tmpdir(), 'svc-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log("app");');
    t = await startTestServer({
      env: {
        Service__Web__Enabled: 'true',
        Service__Web__RootPath: web,
        Service__Upload__RootPath: join(web, '..', `${web.split('/').pop()}-uploads`),
      },
    });
  });
  afterAll(() => t?.close());

  it('serves files of the web root', async () => {
    const res = await t.request('/assets/app.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('console.log("app");');
  });

  it('falls back to index.html for client routes and for /', async () => {
    for (const path of ['/', '/system/user', '/deep/client/route?x=1']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('<title>console</title>');
    }
  });

  it('keeps API, probe and docs paths out of the fallback', async () => {
    const api = await t.request('/api/v1/nope');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: number }).code).toBe(48003);
    expect(await (await t.request('/health')).text()).toBe('Healthy');
    expect((await t.request('/openapi/v1.json')).headers.get('content-type')).toContain('application/json');
  });

  it('does not serve files outside the web root', async () => {
    const res = await t.request('/..%2f..%2fetc%2fpasswd');
    expect(await res.text()).not.toContain('root:');
  });
});
