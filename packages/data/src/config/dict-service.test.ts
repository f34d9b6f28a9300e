import { describe, expect, it } from 'vitest';
import type { DictRepository } from '../repositories/dicts.js';
import { latePubSub } from '../testing/fixtures.js';
import { createDictService, DICT_CHANGED_CHANNEL } from './dict-service.js';

describe('dictionary service cache', () => {
  it('keeps a copy read after its own change when the echo of that change arrives later', async () => {
    let label = 'Red';
    let reads = 0;
    const repo = {
      async enabledItems() {
        reads++;
        return [{ label, value: 'r', sort: 1 }];
      },
    } as unknown as DictRepository;
    const { cache, deliver } = latePubSub();
    const a = await createDictService({ repo, cache });
    const b = await createDictService({ repo, cache });
    expect((await a.items('color'))[0]?.label).toBe('Red');
    label = 'Crimson';
    await a.invalidate('color');
    expect((await a.items('color'))[0]?.label).toBe('Crimson');
    expect((await b.items('color'))[0]?.label).toBe('Crimson');
    // A change behind the services' back, then the echo: `a` keeps what it read; `b`, which did not raise it, drops.
    label = 'Scarlet';
    deliver();
    expect((await a.items('color'))[0]?.label).toBe('Crimson');
    expect((await b.items('color'))[0]?.label).toBe('Scarlet');
    // An event from nowhere in particular (the recovery after an outage) reaches every service.
    await cache.publish(DICT_CHANGED_CHANNEL, { typeCode: null });
    deliver();
    expect((await a.items('color'))[0]?.label).toBe('Scarlet');
    expect(reads).toBe(5);
  });
});
