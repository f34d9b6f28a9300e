/**
 * Notices follow the sender's data scope (contract §4; the rules are in @svc/modules' notice/service.ts). Organisations A, its
 * child A1, and B under the root (where the super admin sits); one administrator per scope type holding the three
 * notice codes (Self, own org, org and children — all in A —, a Custom list naming B, All — in B), an
 * organisation-less one whose org scope cannot be resolved, and plain users in A, A1 and B. Each administrator
 * sends to users only inside their scope, a forged or absent id answering exactly as one outside; to everyone or
 * to a role only with scope All; pages and deletes only notices sent by users inside their scope (the sender-less
 * ones of the jobs' alerts only with All); the super admin's notice stays out of every narrower reach. Before the
 * change every administrator holding the codes did all of this to anyone. The recycle bin (the same
 * administrators hold its codes) pages, restores and purges only the deleted notices they could page, and a
 * restore, delivering the notice again, reaches only receivers the restorer could send to now; before, any
 * holder of the bin's codes read, restored (an All notice back into every inbox) and purged anyone's.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminHarness, startAdminServer } from '../admin/harness.contract.js';

const NOTICE_CODES = [
  'POST:/api/v1/sys/notice',
  'GET:/api/v1/sys/notice/page',
  'DELETE:/api/v1/sys/notice/{id}',
  'GET:/api/v1/sys/recycle/{type}/page',
  'POST:/api/v1/sys/recycle/{type}/{id}/restore',
  'DELETE:/api/v1/sys/recycle/{type}/{id}',
];

/** The administrators of the suite, by the scope of their role. */
const CALLERS = ['self', 'own', 'tree', 'custom', 'all', 'orgless'] as const;
type Caller = (typeof CALLERS)[number];
/** Plain users (no codes) in A, A1 and B. */
const PLAIN = ['a', 'a1', 'b'] as const;
type Plain = (typeof PLAIN)[number];
/** Whoever can have sent a notice: the super admin, the suite's users, or nobody (a job's alert). */
type Sender = Caller | Plain | 'admin' | 'system';
const SENDERS: readonly Sender[] = ['admin', 'system', ...CALLERS, ...PLAIN];

/** The senders whose notices each caller pages and deletes: users inside their scope. */
const SEES: Record<Caller | 'admin', readonly Sender[]> = {
  self: ['self'],
  own: ['self', 'own', 'tree', 'custom', 'a'],
  tree: ['self', 'own', 'tree', 'custom', 'a', 'a1'],
  custom: ['all', 'b'],
  all: SENDERS,
  orgless: [],
  admin: SENDERS,
};

/** A receiver id for the User type: the suite's users, the caller themselves, the super admin, no one. */
type Target = Plain | 'me' | 'admin' | 'forged';
const TARGETS: readonly Target[] = ['a', 'a1', 'b', 'me', 'admin', 'forged'];
/** The targets each caller may send to: users inside their scope (Custom and Org scopes hold no Self). */
const REACHES: Record<Caller, readonly Target[]> = {
  self: ['me'],
  own: ['a', 'me'],
  tree: ['a', 'a1', 'me'],
  custom: ['b'],
  all: ['a', 'a1', 'b', 'me', 'admin'],
  orgless: [],
};

/** An id no user has. */
const FORGED = 987_654;

export function defineNoticesScopeContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`notices in the sender's data scope on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    const id = {} as Record<Caller | Plain, number>;
    const token = {} as Record<Caller | Plain, string>;
    let memberRole: number;
    let orgA: number;
    let serial = 0;

    const tokenOf = (who: Caller | 'admin') => (who === 'admin' ? h.admin : token[who]);
    const publish = async (who: Caller | 'admin', body: Record<string, unknown>) =>
      (
        await h.call('POST', '/api/v1/sys/notice', {
          token: tokenOf(who),
          json: { title: `nss-${++serial}`, type: 1, ...body },
        })
      ).body;
    /** The titles of the suite's notices (those starting with `prefix`) on a caller's page. */
    const paged = async (who: Caller | 'admin', prefix: string) => {
      const page = await h.ok('GET', `/api/v1/sys/notice/page?size=200&title=${prefix}`, {
        token: tokenOf(who),
      });
      return (page.items as { title: string }[]).map((n) => n.title).sort();
    };
    /** The titles starting with `prefix` among the deleted notices on a caller's recycle-bin page. */
    const binned = async (caller: string, prefix: string) => {
      const page = await h.ok('GET', '/api/v1/sys/recycle/notice/page?size=200', { token: caller });
      return (page.items as { title: string }[])
        .map((n) => n.title)
        .filter((t) => t.startsWith(prefix))
        .sort();
    };
    const restore = (caller: string, noticeId: number) =>
      h.call('POST', `/api/v1/sys/recycle/notice/${noticeId}/restore`, { token: caller });
    const purge = (caller: string, noticeId: number) =>
      h.call('DELETE', `/api/v1/sys/recycle/notice/${noticeId}`, { token: caller });
    /** Whether a plain user's inbox holds the notice. */
    const received = async (who: Plain, noticeId: number) => {
      const mine = await h.ok('GET', '/api/v1/sys/notice/mine?size=200', { token: token[who] });
      return (mine.items as { id: number }[]).some((n) => n.id === noticeId);
    };
    /** A notice of `sender` stored as the service stores it (a sender of null: a job's alert). */
    const sentBy = (sender: Sender, title: string) =>
      h.t.server.database.repos.notices.create(
        {
          title,
          type: 1,
          receiverType: 0,
          publishTime: new Date(),
          createTime: new Date(),
          createUserId: sender === 'system' ? null : sender === 'admin' ? h.adminId : id[sender],
        },
        [],
      );

    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
      orgA = await h.org('nss-a');
      const orgA1 = await h.org('nss-a1', orgA);
      const orgB = await h.org('nss-b');
      const role = (code: string, scopeType: number, customOrgIds: number[] = []) =>
        h.role(code, NOTICE_CODES, { scopeType, customOrgIds });
      const own = await role('nss_own', 2);
      const placed: Record<Caller | Plain, [number[], number | null]> = {
        self: [[await role('nss_self', 4)], orgA],
        own: [[own], orgA],
        tree: [[await role('nss_tree', 3)], orgA],
        custom: [[await role('nss_custom', 5, [orgB])], orgA],
        all: [[await role('nss_all', 1)], orgB],
        orgless: [[own], null],
        a: [[], orgA],
        a1: [[], orgA1],
        b: [[], orgB],
      };
      for (const [who, [roleIds, orgId]] of Object.entries(placed) as [
        Caller | Plain,
        [number[], number | null],
      ][]) {
        id[who] = await h.user(`nss-${who}`, { orgId, roleIds });
        token[who] = await h.loginAs(`nss-${who}`);
      }
      // A role held by a user inside every org scope of A: sending to it is still refused below All.
      memberRole = await h.role('nss_members', [], { scopeType: 4 });
      await h.ok('PUT', `/api/v1/sys/role/${memberRole}/users`, { json: { userIds: [id.a] } });
    });
    afterAll(() => h?.close());

    it('sends to users only inside the caller’s scope; a forged id answers exactly as one outside', async () => {
      const idOf = (caller: Caller, target: Target) =>
        target === 'me'
          ? id[caller]
          : target === 'admin'
            ? h.adminId
            : target === 'forged'
              ? FORGED
              : id[target];
      for (const caller of CALLERS) {
        for (const target of TARGETS) {
          const receiver = idOf(caller, target);
          const res = await publish(caller, { receiverType: 2, receiverIds: [receiver] });
          const label = `${caller} → ${target}`;
          if (REACHES[caller].includes(target)) expect(res.code, label).toBe(0);
          else if (caller === 'all')
            expect(res, label).toMatchObject({ code: 45003, args: { ids: [FORGED] } });
          // Absent or beyond the scope: one answer, so a scoped caller cannot probe for users outside it.
          else
            expect(res, label).toEqual({
              code: 41005,
              msgKey: 'error.permission.outOfDataScope',
              data: null,
              args: { reason: 'data-scope', ids: [receiver] },
            });
        }
      }
      // The super admin reaches everyone; an absent id is still absent for them.
      expect((await publish('admin', { receiverType: 2, receiverIds: [id.b, id.a1] })).code).toBe(0);
      expect((await publish('admin', { receiverType: 2, receiverIds: [FORGED] })).code).toBe(45003);
    });

    it('refuses a list with one receiver outside as a whole, naming them; nothing is stored or delivered', async () => {
      for (const caller of ['own', 'tree'] as const) {
        const res = await publish(caller, {
          title: `nsw-${caller}`,
          receiverType: 2,
          receiverIds: [id.a, id.b, FORGED],
        });
        expect(res, caller).toMatchObject({
          code: 41005,
          args: { reason: 'data-scope', ids: [id.b, FORGED] },
        });
      }
      expect(await paged('admin', 'nsw-')).toEqual([]);
      const ok = await publish('own', { title: 'nsw-ok', receiverType: 2, receiverIds: [id.a] });
      expect(ok.code).toBe(0);
      expect(await received('a', ok.data.id)).toBe(true);
      expect(await received('b', ok.data.id)).toBe(false);
      // A deleted user inside the scope is known to be gone: 45003, as for scope All.
      const gone = await h.user('nss-gone', { orgId: orgA });
      await h.t.server.database.repos.users.softDelete([gone], { userId: null, at: new Date() });
      expect(await publish('own', { receiverType: 2, receiverIds: [gone] })).toMatchObject({
        code: 45003,
        args: { ids: [gone] },
      });
    });

    it('sends to everyone or to a role only with scope All (or as the super admin)', async () => {
      for (const caller of CALLERS) {
        for (const [receiverType, receiverIds] of [
          [0, undefined],
          [1, [memberRole]],
        ] as const) {
          const title = `nsr-${caller}-${receiverType}`;
          const res = await publish(caller, { title, receiverType, ...(receiverIds ? { receiverIds } : {}) });
          const label = `${caller} → type ${receiverType}`;
          if (caller === 'all') {
            expect(res.code, label).toBe(0);
            expect(await received('a', res.data.id), label).toBe(true);
          } else {
            expect(res, label).toMatchObject({ code: 41005, args: { reason: 'receivers-beyond-scope' } });
          }
        }
      }
      // Nothing of the refused ones was stored; the role's member got only what scope All sent.
      expect(await paged('admin', 'nsr-')).toEqual(['nsr-all-0', 'nsr-all-1']);
      // Receiver ids are still required first, whatever the scope.
      expect((await publish('self', { receiverType: 1 })).code).toBe(45002);
      for (const [receiverType, receiverIds] of [
        [0, undefined],
        [1, [memberRole]],
      ] as const)
        expect((await publish('admin', { receiverType, ...(receiverIds ? { receiverIds } : {}) })).code).toBe(
          0,
        );
    });

    it('pages only notices sent by users inside the scope, sender-less ones only for All', async () => {
      for (const sender of SENDERS) await sentBy(sender, `nsp-${sender}`);
      for (const who of [...CALLERS, 'admin'] as const) {
        const expected = SEES[who].map((s) => `nsp-${s}`).sort();
        expect(await paged(who, 'nsp-'), who).toEqual(expected);
      }
      // Filters apply within the scope.
      const page = await h.ok('GET', '/api/v1/sys/notice/page?size=200&title=nsp-admin', {
        token: token.own,
      });
      expect(page.total).toBe(0);
    });

    it('deletes only notices sent inside the scope; the super admin’s answers 45001 and stays', async () => {
      for (const who of CALLERS) {
        for (const sender of SENDERS) {
          const title = `nsd-${who}-${sender}`;
          const noticeId = await sentBy(sender, title);
          const res = await h.call('DELETE', `/api/v1/sys/notice/${noticeId}`, { token: token[who] });
          const label = `${who} deletes ${sender}'s`;
          if (SEES[who].includes(sender)) {
            expect(res.body.code, label).toBe(0);
            expect(await paged('admin', title), label).not.toContain(title);
          } else {
            // As for an absent notice: the caller cannot tell one outside from none.
            expect(res.body, label).toEqual({
              code: 45001,
              msgKey: 'error.notice.noticeNotFound',
              data: null,
            });
            expect(await paged('admin', title), label).toContain(title);
          }
        }
      }
      // The super admin deletes anyone's.
      const theirs = await sentBy('b', 'nsd-admin-b');
      expect((await h.call('DELETE', `/api/v1/sys/notice/${theirs}`)).body.code).toBe(0);
    });

    it('the recycle bin pages, restores and purges only notices sent inside the scope', async () => {
      const deleted = {} as Record<Sender, number>;
      for (const sender of SENDERS) {
        deleted[sender] = await sentBy(sender, `nsb-${sender}`);
        await h.ok('DELETE', `/api/v1/sys/notice/${deleted[sender]}`);
      }
      for (const who of [...CALLERS, 'admin'] as const) {
        const expected = SEES[who].map((s) => `nsb-${s}`).sort();
        expect(await binned(tokenOf(who), 'nsb-'), who).toEqual(expected);
      }
      // The super admin's notice and a job's alert are as absent for every narrower scope (42020) and stay put:
      // not back in any inbox, still in the super admin's bin.
      for (const who of CALLERS.filter((c) => c !== 'all')) {
        for (const sender of ['admin', 'system'] as const) {
          for (const [action, call] of [
            ['restore', restore],
            ['purge', purge],
          ] as const) {
            const code = (await call(token[who], deleted[sender])).body.code;
            expect({ who, sender, action, code }).toEqual({ who, sender, action, code: 42020 });
          }
        }
      }
      expect(await binned(h.admin, 'nsb-admin')).toEqual(['nsb-admin']);
      expect(await binned(h.admin, 'nsb-system')).toEqual(['nsb-system']);
      expect(await received('a', deleted.admin)).toBe(false);
      // A notice sent inside the scope is purged like one deleted; it reached everyone, so only All restores it.
      expect((await purge(token.own, deleted.a)).body.code).toBe(0);
      expect(await binned(h.admin, 'nsb-')).not.toContain('nsb-a');
      expect((await restore(token.self, deleted.self)).body).toMatchObject({
        code: 41005,
        args: { reason: 'receivers-beyond-scope' },
      });
      expect((await restore(token.all, deleted.admin)).body.code).toBe(0);
      expect(await received('a', deleted.admin)).toBe(true);
    });

    it('restores an administrator’s own notice only to receivers inside their scope now (41005 otherwise)', async () => {
      const wideRole = await h.role('nss_wide', NOTICE_CODES, { scopeType: 1 });
      await h.user('nss-wide', { orgId: orgA, roleIds: [wideRole] });
      const wide = await h.loginAs('nss-wide');
      /** Sent with scope All, then deleted by its sender. */
      const sentAndDeleted = async (title: string, body: Record<string, unknown>) => {
        const res = await h.call('POST', '/api/v1/sys/notice', {
          token: wide,
          json: { title, type: 1, ...body },
        });
        expect(res.body.code, title).toBe(0);
        await h.ok('DELETE', `/api/v1/sys/notice/${res.body.data.id}`, { token: wide });
        return res.body.data.id as number;
      };
      const toA = await sentAndDeleted('nso-a', { receiverType: 2, receiverIds: [id.a] });
      const toB = await sentAndDeleted('nso-b', { receiverType: 2, receiverIds: [id.b] });
      const toAll = await sentAndDeleted('nso-all', { receiverType: 0 });
      const toRole = await sentAndDeleted('nso-role', { receiverType: 1, receiverIds: [memberRole] });
      // Narrowed to their own organisation (A): the notices are still theirs to see, but no longer theirs to send.
      await h.ok('PUT', `/api/v1/sys/role/${wideRole}/datascope`, {
        json: { scopeType: 2, customOrgIds: [] },
      });
      expect(await binned(wide, 'nso-')).toEqual(['nso-a', 'nso-all', 'nso-b', 'nso-role']);
      for (const [label, noticeId] of [
        ['everyone', toAll],
        ['a role', toRole],
        ['a user beyond', toB],
      ] as const)
        expect((await restore(wide, noticeId)).body, label).toEqual({
          code: 41005,
          msgKey: 'error.permission.outOfDataScope',
          data: null,
          args: { reason: 'receivers-beyond-scope' },
        });
      // Nothing came back: no inbox holds them (a holds the role), all still in the bin.
      expect(await received('a', toAll)).toBe(false);
      expect(await received('a', toRole)).toBe(false);
      expect(await received('b', toB)).toBe(false);
      // A notice to a user inside the scope comes back to them.
      expect((await restore(wide, toA)).body.code).toBe(0);
      expect(await received('a', toA)).toBe(true);
      expect(await binned(h.admin, 'nso-')).toEqual(['nso-all', 'nso-b', 'nso-role']);
      // A scoped administrator's own User notice inside the scope comes back too; the super admin restores any.
      const own = await publish('own', { title: 'nso-own', receiverType: 2, receiverIds: [id.a] });
      await h.ok('DELETE', `/api/v1/sys/notice/${own.data.id}`, { token: token.own });
      expect(await received('a', own.data.id)).toBe(false);
      expect((await restore(token.own, own.data.id)).body.code).toBe(0);
      expect(await received('a', own.data.id)).toBe(true);
      expect((await restore(h.admin, toAll)).body.code).toBe(0);
      expect(await received('b', toAll)).toBe(true);
    });
  });
}
