import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, uploadRootExposure } from '../static/web-root.js';
import { seedPasswordBanner } from './banner.js';
import { createServer } from './create-server.js';
import { parseListenUrl } from './listen.js';
import { StartupError } from './startup-error.js';

describe('listen URL', () => {
  it('parses host and port, defaulting wildcards to all interfaces', () => {
    expect(parseListenUrl('http://localhost:5100')).toEqual({ hostname: 'localhost', port: 5100 });
    expect(parseListenUrl('http://*:8080')).toEqual({ hostname: '0.0.0.0', port: 8080 });
    expect(parseListenUrl('http://[::1]:5200')).toEqual({ hostname: '::1', port: 5200 });
  });
  it('refuses https and garbage with an operator message', () => {
    expect(() => parseListenUrl('https://localhost:5001')).toThrow(StartupError);
    expect(() => parseListenUrl('not a url')).toThrow(/ASPNETCORE_URLS/);
  });
});

describe('upload exposure rule', () => {
  it('refuses an upload root inside a served web root', () => {
    expect(
      uploadRootExposure({
        webEnabled: true,
        webRoot: '/srv/app/wwwroot',
        uploadRoot: '/srv/app/wwwroot/upload',
      }),
    ).toMatch(/Service:Upload:RootPath .* lies inside the web root/);
  });
  it('allows it when static files are not served, or when the root is outside', () => {
    expect(
      uploadRootExposure({
        webEnabled: false,
        webRoot: '/srv/app/wwwroot',
        uploadRoot: '/srv/app/wwwroot/upload',
      }),
    ).toBeUndefined();
    expect(
      uploadRootExposure({
        webEnabled: true,
        webRoot: '/srv/app/wwwroot',
        uploadRoot: '/srv/app/storage/upload',
      }),
    ).toBeUndefined();
    expect(isInside('/srv/app/wwwroot', '/srv/app/wwwroot-other')).toBe(false);
  });
});

describe('start-up failures name what to change', () => {
  const root = () => mkdtempSync(join(tmpdir(), 'svc-start-'));
  it('a bad DbType', async () => {
    await expect(
      createServer({ contentRoot: root(), env: { Service__Database__DbType: 'Oracle' } }),
    ).rejects.toThrow(/Service:Database:DbType: expected Sqlite \| MySql \| PostgreSQL \| SqlServer/);
  });
  it('a short signing key', async () => {
    await expect(
      createServer({ contentRoot: root(), env: { Service__Jwt__SecretKey: 'short' } }),
    ).rejects.toThrow(/Service:Jwt:SecretKey is 5 bytes/);
  });
  it('no signing key in Production', async () => {
    await expect(createServer({ contentRoot: root(), env: {} })).rejects.toThrow(
      /Service:Jwt:SecretKey is not set/,
    );
  });
  it('the default upload root under a served web root', async () => {
    await expect(
      createServer({
        contentRoot: root(),
        env: { ASPNETCORE_ENVIRONMENT: 'Development', Service__Web__Enabled: 'true' },
      }),
    ).rejects.toThrow(/lies inside the web root/);
  });
  it('the BullMQ engine without a Redis cache, before the database is touched', async () => {
    const dir = root();
    await expect(
      createServer({
        contentRoot: dir,
        env: { ASPNETCORE_ENVIRONMENT: 'Development', Service__Jobs__Engine: 'BullMQ' },
      }),
    ).rejects.toThrow(/Service:Jobs:Engine BullMQ needs Service:Cache:Provider Redis/);
    expect(existsSync(join(dir, 'data')), 'no database file was created').toBe(false);
  });
  it('the upload root under a served web root with module Upload off: its files stay on disk', async () => {
    await expect(
      createServer({
        contentRoot: root(),
        env: {
          ASPNETCORE_ENVIRONMENT: 'Development',
          Service__Web__Enabled: 'true',
          Service__Api__DisabledModules__0: 'Upload',
        },
      }),
    ).rejects.toThrow(/Service:Upload:RootPath .* lies inside the web root/);
  });
  it('an unreachable database', async () => {
    await expect(
      createServer({
        contentRoot: root(),
        env: {
          ASPNETCORE_ENVIRONMENT: 'Development',
          Service__Database__DbType: 'PostgreSQL',
          Service__Database__ConnectionString:
            'Host=127.0.0.1;Port=1;Database=x;Username=u;Password=topsecret',
        },
      }),
    ).rejects.toSatisfy(
      (error: Error) =>
        error instanceof StartupError && /PostgreSQL/.test(error.message) && !/topsecret/.test(error.message),
    );
  });
  it('a malformed Redis address (Redis away at start is served degraded; a wrong address is not an outage)', async () => {
    await expect(
      createServer({
        contentRoot: root(),
        env: {
          ASPNETCORE_ENVIRONMENT: 'Development',
          Service__Database__ConnectionString: 'Data Source=:memory:',
          Service__Security__Password__Pbkdf2Iterations: '100000',
          Service__Cache__Provider: 'Redis',
          Service__Cache__Redis__Configuration: 'redis://:::bad',
        },
      }),
    ).rejects.toSatisfy(
      (error: Error) =>
        error instanceof StartupError &&
        /^Service:Cache: Cannot connect to Redis .*Invalid URL/.test(error.message),
    );
  });
});

describe('seed banner', () => {
  it('shows account and password once, boxed', () => {
    const text = seedPasswordBanner('superAdmin', 'Abcdefgh23456789');
    expect(text).toContain('Account : superAdmin');
    expect(text).toContain('Password: Abcdefgh23456789');
    expect(text.split('\n').filter((l) => l.startsWith('****'))).toHaveLength(2);
  });
});
