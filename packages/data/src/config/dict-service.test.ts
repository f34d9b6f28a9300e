import { describe, expect, it } from 'vitest';
import type { Cache } from '../cache/port.js';
import type { DictRepository } from '../repositories/dicts.js';
import { createDictService, DICT_CHANGED_CHANNEL } from './dict-service.js';

/** A pub/sub whose subscribers hear a message only when the test delivers it, as Redis delivers it some time later. */
function lateBus() {
  const handlers: ((message: unknown) => void)[] = [];
  const sent: unknown[] = [];
  const cache = {
    async publish(_channel: string, message: unknown) {
      sent.push(message);
    },
    async subscribe(_channel: string, handler: (message: unknown) => void) {
      handlers.push(handler);
      return async () => {};
    },
  } as unknown as Pick<Cache, 'publish' | 'subscribe'>;
  const deliver = () => {
    for (const message of sent.splice(0)) for (const handler of handlers) handler(message);
  };
  return { cache, deliver };
}

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
    const { cache, deliver } = lateBus();
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
