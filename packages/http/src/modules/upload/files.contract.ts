/**
 * Files over HTTP: upload limits (44001–44003), generated storage names under the upload root, the signed
 * view link (tampered, expired and edited-expiry links refused with 44007 before any lookup), download as an
 * attachment with the original name and nosniff, inline only for raster images and PDF, no path traversal.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/index.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001' +
    '0d0a2db40000000049454e44ae426082',
  'hex',
);

function form(name: string, bytes: Uint8Array | string, type = 'application/octet-stream'): FormData {
  const data = new FormData();
  data.append('file', new File([bytes], name, { type }));
  return data;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

export function defineFilesContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`files on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    let clock = new Date('2026-03-01T10:00:00Z').getTime();
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        cache,
        now: () => new Date(clock),
        env: {
          Service__Upload__MaxSizeMb: '1',
          Service__Upload__RootPath: './storage/upload',
          Service__Upload__SignedUrlTtlMinutes: '10',
        },
      });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    const upload = async (data: FormData) =>
      json(await t.request('/api/v1/sys/file/upload', { method: 'POST', headers: admin, body: data }));

    it('stores an upload under a generated name and answers a signed view link that works anonymously', async () => {
      const res = await upload(form('../../evil name ü.png', PNG, 'text/html'));
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({
        originalName: '../../evil name ü.png',
        sizeBytes: PNG.length,
        contentType: 'image/png',
      });
      expect(res.data.viewUrl).toMatch(/^\/api\/v1\/sys\/file\/\d+\/view\?sig=[\w-]+&exp=\d+$/);
      const stored = walk(join(t.contentRoot, 'storage/upload'));
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatch(/storage\/upload\/2026\/03\/[0-9a-f]{32}\.png$/);
      const view = await t.request(res.data.viewUrl);
      expect(view.status).toBe(200);
      expect(view.headers.get('content-type')).toBe('image/png');
      expect(view.headers.get('content-disposition')).toMatch(/^inline; /);
      expect(view.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await view.arrayBuffer()).equals(PNG)).toBe(true);
    });

    it('refuses tampered, edited-expiry and expired links with 44007', async () => {
      const res = await upload(form('a.png', PNG));
      const url = new URL(res.data.viewUrl, 'http://x');
      const id = Number(url.pathname.split('/')[5]);
      const sig = url.searchParams.get('sig') as string;
      const exp = url.searchParams.get('exp') as string;
      const flip = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
      const codeOf = async (path: string) => (await json(await t.request(path))).code;
      expect(await codeOf(`/api/v1/sys/file/${id}/view?sig=${flip}&exp=${exp}`)).toBe(44007);
      expect(await codeOf(`/api/v1/sys/file/${id}/view?sig=${sig}&exp=${Number(exp) + 3600}`)).toBe(44007);
      expect(await codeOf(`/api/v1/sys/file/${id}/view?sig=${sig}`)).toBe(44007);
      expect(await codeOf(`/api/v1/sys/file/${id + 1}/view?sig=${sig}&exp=${exp}`)).toBe(44007);
      expect(await codeOf(`/api/v1/sys/file/${id}/view`)).toBe(44007);
      expect(await codeOf(`/api/v1/sys/file/..%2F..%2Fetc%2Fpasswd/view?sig=${sig}&exp=${exp}`)).toBe(44007);
      expect((await t.request(res.data.viewUrl)).status).toBe(200);
      clock += 11 * 60_000;
      expect(await codeOf(res.data.viewUrl)).toBe(44007);
    });

    it('downloads as an attachment with the original name (RFC 5987) and nosniff; bearer only', async () => {
      const res = await upload(form('Bericht "Q1" ü.txt', '<script>alert(1)</script>'));
      expect(res.data.contentType).toBe('text/plain; charset=utf-8');
      expect((await t.request(`/api/v1/sys/file/${res.data.id}/download`)).status).toBe(401);
      const dl = await t.request(`/api/v1/sys/file/${res.data.id}/download`, { headers: admin });
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-disposition')).toBe(
        `attachment; filename="Bericht _Q1_ _.txt"; filename*=UTF-8''Bericht%20%22Q1%22%20%C3%BC.txt`,
      );
      expect(dl.headers.get('x-content-type-options')).toBe('nosniff');
      expect(dl.headers.get('content-type')).toBe('application/octet-stream');
      // Not an image or PDF: the view link sends it as an attachment too, never inline.
      const view = await t.request(res.data.viewUrl);
      expect(view.headers.get('content-disposition')).toMatch(/^attachment; /);
      expect(view.headers.get('content-type')).toBe('application/octet-stream');
      expect((await json(await t.request('/api/v1/sys/file/..%2F1/download', { headers: admin }))).code).toBe(
        48000,
      );
    });

    it('enforces emptiness (44001), size (44002) and extension (44003) limits', async () => {
      expect((await upload(form('empty.png', new Uint8Array(0)))).code).toBe(44001);
      expect((await upload(form('big.png', new Uint8Array(1024 * 1024 + 1)))).code).toBe(44002);
      expect((await upload(form('page.html', '<html></html>', 'text/html'))).code).toBe(44003);
      expect((await upload(form('logo.svg', '<svg/>', 'image/svg+xml'))).code).toBe(44003);
      expect((await upload(form('noext', 'x'))).code).toBe(44003);
      const huge = await t.request('/api/v1/sys/file/upload', {
        method: 'POST',
        headers: admin,
        body: form('huge.png', new Uint8Array(3 * 1024 * 1024)),
      });
      expect((await json(huge)).code).toBe(44002);
      const missing = await upload(new FormData());
      expect(missing.code).toBe(48000);
      expect(missing.args.errors[0].path).toBe('file');
    });

    it('refuses a file name holding NUL, another control character or a direction override with 48000, keeping no bytes', async () => {
      const before = walk(join(t.contentRoot, 'storage/upload')).length;
      for (const name of [
        'a\u0000.png',
        'x\r\nSet-Cookie: a=b.png',
        'tab\t.png',
        'c1\u0085.png',
        'report\u202egnp.exe.png',
      ]) {
        const res = await upload(form(name, PNG, 'image/png'));
        expect(res, JSON.stringify(name)).toMatchObject({
          code: 48000,
          args: { errors: [{ path: 'file' }] },
        });
      }
      expect(walk(join(t.contentRoot, 'storage/upload'))).toHaveLength(before);
      // Other scripts and symbols are names like any other.
      const kept = await upload(form('Bericht ü – 报告 ✓.png', PNG, 'image/png'));
      expect(kept.code).toBe(0);
      expect(kept.data.originalName).toBe('Bericht ü – 报告 ✓.png');
    });

    it('pages files with fresh links and deletes them (44004 afterwards; bytes kept until purged from the bin)', async () => {
      const res = await upload(form('gone.pdf', '%PDF-1.4'));
      const page = await json(await t.request('/api/v1/sys/file/page?name=gone', { headers: admin }));
      expect(page.data.items).toHaveLength(1);
      expect(page.data.items[0]).toMatchObject({ id: res.data.id, contentType: 'application/pdf' });
      const before = walk(join(t.contentRoot, 'storage/upload')).length;
      expect(
        (await json(await t.request(`/api/v1/sys/file/${res.data.id}`, { method: 'DELETE', headers: admin })))
          .code,
      ).toBe(0);
      // Deleted, not gone: the recycle bin can give it back until it is purged.
      expect(walk(join(t.contentRoot, 'storage/upload')).length).toBe(before);
      expect(
        (await json(await t.request(`/api/v1/sys/file/${res.data.id}`, { method: 'DELETE', headers: admin })))
          .code,
      ).toBe(44004);
      expect((await json(await t.request(page.data.items[0].viewUrl))).code).toBe(44004);
      const purged = await t.request(`/api/v1/sys/recycle/file/${res.data.id}`, {
        method: 'DELETE',
        headers: admin,
      });
      expect((await json(purged)).code).toBe(0);
      expect(walk(join(t.contentRoot, 'storage/upload')).length).toBe(before - 1);
    });
  });
}
