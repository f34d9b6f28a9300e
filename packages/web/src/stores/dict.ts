/** Dictionaries store: items per type code, loaded once and shared by the dictionary select and tag. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';

export interface DictItem {
  label: string;
  value: string;
}

export const useDictStore = defineStore('svc-dict', () => {
  const items = ref<Record<string, DictItem[]>>({});
  const pending = new Map<string, Promise<DictItem[]>>();

  function get(api: ApiClient, typeCode: string): Promise<DictItem[]> {
    const cached = items.value[typeCode];
    if (cached) return Promise.resolve(cached);
    let loading = pending.get(typeCode);
    if (!loading) {
      loading = api
        .GET('/api/v1/sys/dict/items/{typeCode}', { params: { path: { typeCode } } })
        .then(unwrap)
        .then((rows) => {
          const list = (rows as Array<{ label: string; value: string }>).map((r) => ({
            label: r.label,
            value: r.value,
          }));
          items.value[typeCode] = list;
          return list;
        })
        .finally(() => pending.delete(typeCode));
      pending.set(typeCode, loading);
    }
    return loading;
  }

  function reset(): void {
    items.value = {};
  }

  return { items, get, reset };
});
