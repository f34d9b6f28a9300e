import type { DataScopeFilter } from '@svc/data';
import { describe, expect, it } from 'vitest';
import type { RealtimeRecipients } from '../realtime/bus.js';
import { isSameOriginPath, type NoticeDeps, publishNotice } from './service.js';

interface Told {
  kind: string;
  to: RealtimeRecipients;
  data: unknown;
}

describe('isSameOriginPath', () => {
  it('accepts paths with exactly one leading slash', () => {
    for (const url of ['/', '/system/user', '/a/b?c=d&e=/f#g', '/x:y', '/%2F%2Fencoded'])
      expect(isSameOriginPath(url), url).toBe(true);
  });

  it('refuses schemes, protocol-relative and backslash tricks, control characters and whitespace', () => {
    for (const url of [
      '',
      'a',
      'https://evil.example',
      'javascript:alert(1)',
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\/evil.example',
      '/a/..//b',
      '/a\\b',
      '/a\u0000',
      '/a\r\nSet-Cookie:x',
      '/a\u0085b',
      '/a b',
      '/a\u00a0b',
      `/${'x'.repeat(1000)}`,
    ])
      expect(isSameOriginPath(url), JSON.stringify(url)).toBe(false);
  });
});

describe('publishNotice', () => {
  function fake() {
    const events: Told[] = [];
    const created: { row: unknown; receivers: readonly number[] }[] = [];
    const deps = {
      repos: {
        notices: {
          liveRoleIds: async (ids: readonly number[]) => ids.filter((id) => id < 100),
          liveUserIds: async (ids: readonly number[]) => ids.filter((id) => id < 100),
          // Users 1–99 exist; those below 10 are in organisation 1, the rest in organisation 2.
          userIdsInScope: async (ids: readonly number[], scope: DataScopeFilter) =>
            ids.filter(
              (id) => id < 100 && (scope.orgIds.includes(id < 10 ? 1 : 2) || id === scope.selfUserId),
            ),
          roleMemberIds: async (roleIds: readonly number[]) => roleIds.map((r) => r * 10),
          create: async (row: unknown, receivers: readonly number[]) => {
            created.push({ row, receivers });
            return 42;
          },
        },
      },
      realtime: {
        publish: async (kind: string, to: RealtimeRecipients, data: unknown) =>
          void events.push({ kind, to, data }),
      },
      now: () => new Date('2026-01-01T00:00:00Z'),
    } as unknown as NoticeDeps;
    return { deps, events, created };
  }

  it('resolves role members at publish time and tells exactly them', async () => {
    const f = fake();
    const id = await publishNotice(
      f.deps,
      { title: 't', type: 1, receiverType: 1, receiverIds: [1, 2, 2] },
      5,
    );
    expect(id).toBe(42);
    expect(f.created[0]?.receivers).toEqual([10, 20]);
    expect(f.events).toEqual([
      { kind: 'notice-changed', to: { userIds: [10, 20] }, data: { noticeId: 42, action: 'published' } },
    ]);
  });

  it('refuses before storing anything: 45004 with the index, 45002, 45003 with the ids', async () => {
    const f = fake();
    const bad = publishNotice(
      f.deps,
      {
        title: 't',
        type: 1,
        receiverType: 0,
        actions: [
          { label: 'ok', method: 'GET', url: '/ok' },
          { label: 'no', method: 'GET', url: '//evil' },
        ],
      },
      null,
    );
    await expect(bad).rejects.toMatchObject({ code: 45004, args: { index: 1 } });
    await expect(publishNotice(f.deps, { title: 't', type: 1, receiverType: 2 }, null)).rejects.toMatchObject(
      {
        code: 45002,
      },
    );
    await expect(
      publishNotice(f.deps, { title: 't', type: 1, receiverType: 2, receiverIds: [3, 300] }, null),
    ).rejects.toMatchObject({ code: 45003, args: { ids: [300] } });
    expect(f.created).toEqual([]);
    expect(f.events).toEqual([]);
  });

  it('keeps a scoped publisher inside their scope (41005), checked before the receivers exist', async () => {
    const f = fake();
    const org1: DataScopeFilter = { all: false, orgIds: [1], selfUserId: null };
    const send = (receiverType: 0 | 1 | 2, receiverIds?: number[]) =>
      publishNotice(f.deps, { title: 't', type: 1, receiverType, receiverIds }, 5, { scope: org1 });
    const beyond = { code: 41005, args: { reason: 'receivers-beyond-scope' } };
    await expect(send(0)).rejects.toMatchObject(beyond);
    await expect(send(1, [1])).rejects.toMatchObject(beyond);
    // Outside the organisation or no user at all: the same answer.
    await expect(send(2, [3, 42, 300])).rejects.toMatchObject({
      code: 41005,
      args: { reason: 'data-scope', ids: [42, 300] },
    });
    await expect(send(1)).rejects.toMatchObject({ code: 45002 });
    expect(f.created).toEqual([]);
    expect(await send(2, [3, 4])).toBe(42);
    // Scope All, like no scope (the server sending as itself), reaches anyone.
    const all: DataScopeFilter = { all: true, orgIds: [], selfUserId: null };
    await publishNotice(f.deps, { title: 't', type: 1, receiverType: 0 }, 5, { scope: all });
    expect(f.created.map((c) => c.receivers)).toEqual([[3, 4], []]);
  });
});
