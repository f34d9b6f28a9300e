/**
 * Files follow their uploader's data scope (contract §10): with two organisations, a user whose role sees only
 * their own organisation pages, downloads and deletes only files uploaded there (44004 for the others, as for
 * a missing file, so ids cannot be counted); the super admin sees all; the signed view link stays anonymous.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from '../../testing/auth.js';
import { type AdminHarness, startAdminServer } from '../admin/harness.contract.js';

const FILE_CODES = [
  'GET:/api/v1/sys/file/page',
  'POST:/api/v1/sys/file/upload',
  'DELETE:/api/v1/sys/file/{id}',
];

export function defineFilesScopeContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`files in the uploader's data scope on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    let alice: string;
    let bob: string;
    // biome-ignore lint/suspicious/noExplicitAny: upload answers are checked field by field.
    let aliceFile: any;
    // biome-ignore lint/suspicious/noExplicitAny: upload answers are checked field by field.
    let bobFile: any;

    const upload = async (token: string, name: string) => {
      const data = new FormData();
      data.append('file', new File(['hello'], name, { type: 'text/plain' }));
      const res = await h.t.request('/api/v1/sys/file/upload', {
        method: 'POST',
        headers: bearer(token),
        body: data,
      });
      const body = await json(res);
      expect(body.code, name).toBe(0);
      return body.data;
    };
    const pageIds = async (token: string) =>
      (await h.ok('GET', '/api/v1/sys/file/page?size=100', { token })).items.map((f: { id: number }) => f.id);
    const download = async (token: string, id: number) => {
      const res = await h.t.request(`/api/v1/sys/file/${id}/download`, { headers: bearer(token) });
      return res.headers.get('content-type') === 'application/octet-stream' ? 200 : (await json(res)).code;
    };

    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
      const orgA = await h.org('files-a');
      const orgB = await h.org('files-b');
      const ownOrg = await h.role('files-own-org', FILE_CODES, { scopeType: 2 });
      await h.user('files-alice', { orgId: orgA, roleIds: [ownOrg] });
      await h.user('files-bob', { orgId: orgB, roleIds: [ownOrg] });
      alice = await h.loginAs('files-alice');
      bob = await h.loginAs('files-bob');
      aliceFile = await upload(alice, 'alice.txt');
      bobFile = await upload(bob, 'bob.txt');
    });
    afterAll(() => h?.close());

    it('pages only files uploaded within the caller’s scope; the super admin sees all', async () => {
      expect(await pageIds(alice)).toEqual([aliceFile.id]);
      expect(await pageIds(bob)).toEqual([bobFile.id]);
      const all = await pageIds(h.admin);
      expect(all).toContain(aliceFile.id);
      expect(all).toContain(bobFile.id);
    });

    it('downloads only files within the scope: counting ids finds nothing else (44004)', async () => {
      const statuses = await Promise.all(
        Array.from({ length: bobFile.id + 3 }, (_, i) => download(alice, i + 1)),
      );
      const readable = statuses.flatMap((s, i) => (s === 200 ? [i + 1] : []));
      expect(readable).toEqual([aliceFile.id]);
      expect(statuses[bobFile.id - 1]).toBe(44004);
      expect(await download(h.admin, bobFile.id)).toBe(200);
    });

    it('deletes only files within the scope, leaving the other organisation’s file intact', async () => {
      const refused = await h.call('DELETE', `/api/v1/sys/file/${bobFile.id}`, { token: alice });
      expect(refused.body.code).toBe(44004);
      expect(await download(bob, bobFile.id)).toBe(200);
      const extra = await upload(bob, 'bob-2.txt');
      await h.ok('DELETE', `/api/v1/sys/file/${extra.id}`, { token: bob });
      expect(await pageIds(bob)).toEqual([bobFile.id]);
    });

    it('keeps the signed view link anonymous, whoever uploaded the file', async () => {
      const view = await h.t.request(bobFile.viewUrl);
      expect(view.status).toBe(200);
      expect(await view.text()).toBe('hello');
    });
  });
}
