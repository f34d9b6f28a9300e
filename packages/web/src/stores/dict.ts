/**
 * Dictionaries store: the items of each type code, read once through the route every signed-in user may call
 * (`GET /sys/dict/items/{typeCode}`) and shared by the dictionary select and tag. A page that writes a type's
 * items calls `invalidate(code)` so the next reader sees the change.
 */

import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import type { components } from '../api/schema.js';

/** An item as the select and tag use it (the route's `DictOption` without its sort). */
export type DictItem = Pick<components['schemas']['DictOption'], 'label' | 'value'>;

export const useDictStore = defineStore('svc-dict', () => {
  const items = ref<Record<string, DictItem[]>>({});
  const pending = new Map<string, Promise<DictItem[]>>();
  /** Bumped per code by `invalidate`, so a load that started before it does not store stale items. */
  const generation = new Map<string, number>();

  function get(api: ApiClient, typeCode: string): Promise<DictItem[]> {
    const cached = items.value[typeCode];
    if (cached) return Promise.resolve(cached);
    let loading = pending.get(typeCode);
    if (!loading) {
      const started = generation.get(typeCode) ?? 0;
      loading = api
        .GET('/api/v1/sys/dict/items/{typeCode}', { params: { path: { typeCode } } })
        .then(unwrap)
        .then((rows) => {
          const list = rows.map((r) => ({
            label: r.label,
            value: r.value,
          }));
          if ((generation.get(typeCode) ?? 0) === started) items.value[typeCode] = list;
          return list;
        })
        .finally(() => {
          if (pending.get(typeCode) === loading) pending.delete(typeCode);
        });
      pending.set(typeCode, loading);
    }
    return loading;
  }

  /** The label of a value once its type is loaded (`undefined` before, or for a value not in the type). */
  function labelOf(typeCode: string, value: string): string | undefined {
    return items.value[typeCode]?.find((item) => item.value === value)?.label;
  }

  /** Drops one type (after a write to its items); the next `get` reads it again. */
  function invalidate(typeCode: string): void {
    generation.set(typeCode, (generation.get(typeCode) ?? 0) + 1);
    pending.delete(typeCode);
    const { [typeCode]: _dropped, ...rest } = items.value;
    items.value = rest;
  }

  function reset(): void {
    for (const code of new Set([...Object.keys(items.value), ...pending.keys()]))
      generation.set(code, (generation.get(code) ?? 0) + 1);
    pending.clear();
    items.value = {};
  }

  return { items, get, labelOf, invalidate, reset };
});
