/** Dictionaries: one request per type code, shared by concurrent callers, cached afterwards. */
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client.js';
import { useDictStore } from './dict.js';

describe('dictionary store', () => {
  beforeEach(() => setActivePinia(createPinia()));

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
