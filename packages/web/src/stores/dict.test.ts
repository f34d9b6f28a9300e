/** Dictionaries: one request per type code, shared by concurrent callers, cached afterwards. */
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client.js';
import { useDictStore } from './dict.js';

/** A client whose dictionary route answers `answers[n]` on its n-th call and records the paths. */
function fakeApi(answers: Array<Array<{ label: string; value: string; sort: number }>>) {
  const requested: string[] = [];
  const api = createApiClient({
    baseUrl: 'http://console.test',
    getAccessToken: () => 'tok',
    refresh: async () => false,
    onAuthLost: () => {},
    fetch: async (request) => {
      requested.push(new URL(request.url).pathname);
      const data = answers[Math.min(requested.length, answers.length) - 1];
      return new Response(JSON.stringify({ code: 0, msgKey: 'common.success', data }), {
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { api, requested };
}

describe('dictionary store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('reads a type again after invalidate, and labels values from the loaded items', async () => {
    const { api, requested } = fakeApi([
      [{ label: 'Open', value: '1', sort: 1 }],
      [
        { label: 'Open', value: '1', sort: 1 },
        { label: 'Closed', value: '2', sort: 2 },
      ],
    ]);
    const dict = useDictStore();
    expect(dict.labelOf('ticket', '1')).toBeUndefined();
    await dict.get(api, 'ticket');
    expect(dict.labelOf('ticket', '1')).toBe('Open');
    expect(dict.labelOf('ticket', '2')).toBeUndefined();
    dict.invalidate('ticket');
    expect(dict.items.ticket).toBeUndefined();
    await dict.get(api, 'ticket');
    expect(dict.labelOf('ticket', '2')).toBe('Closed');
    expect(requested).toEqual(['/api/v1/sys/dict/items/ticket', '/api/v1/sys/dict/items/ticket']);
  });

  it('does not keep what a load started before an invalidate answered', async () => {
    const { api, requested } = fakeApi([
      [{ label: 'Stale', value: '1', sort: 1 }],
      [{ label: 'Fresh', value: '1', sort: 1 }],
    ]);
    const dict = useDictStore();
    const early = dict.get(api, 'ticket');
    dict.invalidate('ticket');
    expect((await early)[0]?.label).toBe('Stale');
    expect(dict.items.ticket).toBeUndefined();
    expect((await dict.get(api, 'ticket'))[0]?.label).toBe('Fresh');
    expect(dict.labelOf('ticket', '1')).toBe('Fresh');
    expect(requested).toHaveLength(2);
  });

  it('loads a type once for concurrent and later callers', async () => {
    const requested: string[] = [];
    const api = createApiClient({
      baseUrl: 'http://console.test',
      getAccessToken: () => 'tok',
      refresh: async () => false,
      onAuthLost: () => {},
      fetch: async (request) => {
        requested.push(new URL(request.url).pathname);
        const data = [{ label: 'Male', value: '1', sort: 1 }];
        return new Response(JSON.stringify({ code: 0, msgKey: 'common.success', data }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const dict = useDictStore();
    const [a, b] = await Promise.all([dict.get(api, 'sys_gender'), dict.get(api, 'sys_gender')]);
    await dict.get(api, 'sys_gender');
    expect(a).toEqual([{ label: 'Male', value: '1' }]);
    expect(b).toBe(a);
    expect(requested).toEqual(['/api/v1/sys/dict/items/sys_gender']);
  });
});
