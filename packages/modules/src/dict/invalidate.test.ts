/** Dropping dictionary copies with module Dict on (its service) and off (the change event alone). */
import { DICT_CHANGED_CHANNEL, type DictChangedEvent } from '@svc/data';
import { createMemoryCache } from '@svc/data/cache';
import { describe, expect, it } from 'vitest';
import { invalidateDicts } from './invalidate.js';

describe('invalidateDicts', () => {
  it("asks module Dict's service while it is on, and answers what it dropped", async () => {
    const cache = createMemoryCache({ entryLimit: 100, maxEntryMinutes: 10 });
    const asked: (string | undefined)[] = [];
    const dicts = Promise.resolve({
      invalidate: async (typeCode?: string) => {
        asked.push(typeCode);
        return 2;
      },
    });
    expect(await invalidateDicts({ cache, dicts }, 'gender')).toBe(2);
    expect(asked).toEqual(['gender']);
    await cache.close();
  });

  it('raises the change event for the other instances while the module is off here', async () => {
    const cache = createMemoryCache({ entryLimit: 100, maxEntryMinutes: 10 });
    const events: DictChangedEvent[] = [];
    await cache.subscribe<DictChangedEvent>(DICT_CHANGED_CHANNEL, (e) => void events.push(e));
    expect(await invalidateDicts({ cache, dicts: undefined }, 'gender')).toBe(0);
    expect(await invalidateDicts({ cache, dicts: undefined })).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual([{ typeCode: 'gender' }, { typeCode: null }]);
    await cache.close();
  });
});
