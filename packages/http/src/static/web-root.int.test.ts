/**
 * Single-process hosting: with `Service:Web:Enabled` the web root is served, unmatched non-API GET paths fall
 * back to `index.html`, and API, probe and docs paths keep their own answers. Every answer, the console's and
 * the API's, carries the Permissions-Policy.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../host/listen.js';
import { RawConnection } from '../host/raw-http.contract.js';
import { bearer, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';

/** Contract §11: what an admin console never uses is denied; passkey sign-in stays with this origin. */
const PERMISSIONS =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), publickey-credentials-get=(self)';

describe('frontend in the same process', () => {
  let t: TestServer;
  beforeAll(async () => {
    const web = mkdtempSync(join(tmpdir(), 'svc-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log("app");');
    // What a web root often holds besides the build, and links out of it.
    writeFileSync(join(web, '.env'), 'SECRET=dotenv-secret');
    mkdirSync(join(web, '.git'));
    writeFileSync(join(web, '.git', 'config'), '[remote] url = git-secret');
    writeFileSync(join(web, 'assets', '.hidden'), 'hidden-secret');
    mkdirSync(join(web, '.well-known'));
    writeFileSync(join(web, '.well-known', 'security.txt'), 'Contact: mailto:security@example.test');
    const outside = mkdtempSync(join(tmpdir(), 'svc-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'outside-secret');
    symlinkSync(outside, join(web, 'linked'));
    symlinkSync(join(outside, 'secret.txt'), join(web, 'leak.txt'));
    symlinkSync(join(web, 'assets', 'app.js'), join(web, 'alias.js'));
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

  it('answers 404 for dot segments in any encoding (.well-known excepted) and for links out of the web root', async () => {
    for (const path of [
      '/.env',
      '/%2eenv',
      '/%2Eenv',
      '/.git/config',
      '/%2egit/config',
      '/assets/.hidden',
      '/linked/secret.txt',
      '/leak.txt',
    ]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toMatch(/(dotenv|git|hidden|outside)-secret/);
    }
    expect(await (await t.request('/.well-known/security.txt')).text()).toContain('Contact:');
    // A link that stays inside is served.
    expect(await (await t.request('/alias.js')).text()).toBe('console.log("app");');
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    for (const path of ['/assets/nothere.js', '/favicon.ico', '/deep/page.css']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('<title>console</title>');
    }
  });

  it('sends a content security policy with the pages, and caches only hashed assets for good', async () => {
    for (const path of ['/', '/index.html', '/system/user']) {
      const res = await t.request(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain('unsafe-eval');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    const asset = await t.request('/assets/app.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends the Permissions-Policy through app.request as well', async () => {
    for (const path of ['/', '/assets/app.js', '/health', '/api/v1/ping', '/api/v1/nope']) {
      expect((await t.request(path)).headers.get('permissions-policy'), path).toBe(PERMISSIONS);
    }
  });

  // Last: shutting the listener down closes the service.
  it('sends the Permissions-Policy with every answer: API, errors, console page, asset, probe', async () => {
    const running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    try {
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const get = async (path: string, headers: Record<string, string> = {}) => {
        const connection = await RawConnection.open(running.url);
        try {
          await connection.request('GET', path, headers);
          return await connection.response();
        } finally {
          connection.close();
        }
      };
      const answers = [
        ['API answer', await get('/api/v1/ping', bearer(token)), 200],
        ['refused on the direct path', await get('/api/v1/ping'), 401],
        ['API 404', await get('/api/v1/nope'), 404],
        ['bad request target', await get('*'), 400],
        ['console index', await get('/'), 200],
        ['client route', await get('/system/user'), 200],
        ['asset', await get('/assets/app.js'), 200],
        ['missing asset', await get('/assets/gone.js'), 404],
        ['probe', await get('/health'), 200],
        ['readiness', await get('/health/ready'), 200],
      ] as const;
      for (const [what, res, status] of answers) {
        expect(res.status, what).toBe(status);
        expect(res.headers['permissions-policy'], what).toBe(PERMISSIONS);
        expect(
          res.lines.filter((line) => /^permissions-policy:/i.test(line)),
          what,
        ).toHaveLength(1);
      }
    } finally {
      await running.shutdown();
    }
  });
});
