/** Table settings: per user and per table, kept over a new page, unreadable storage read as the defaults. */
import { describe, expect, it } from 'vitest';
import { nextTick, ref } from 'vue';
import { readTableSettings, tableSettingsKey, useTableSettings } from './table-settings.js';

/** A Storage over a Map (what a reload keeps). */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

describe('table settings', () => {
  it('keeps hidden columns and density for the next page of the same user and table', () => {
    const storage = memoryStorage();
    const first = useTableSettings(
      () => 1,
      () => 'user-table',
      storage,
    );
    first.toggle('email');
    first.toggle('phone');
    first.toggle('email');
    first.density.value = 'compact';
    const reloaded = useTableSettings(
      () => 1,
      () => 'user-table',
      storage,
    );
    expect(reloaded.hidden.value).toEqual(['phone']);
    expect(reloaded.density.value).toBe('compact');
  });

  it('never shares a choice between users or between tables', async () => {
    const storage = memoryStorage();
    const user = ref<number | undefined>(1);
    const table = ref('user-table');
    const state = useTableSettings(
      () => user.value,
      () => table.value,
      storage,
    );
    state.toggle('email');
    state.density.value = 'large';
    user.value = 2;
    await nextTick();
    expect(state.hidden.value).toEqual([]);
    expect(state.density.value).toBe('default');
    // Loading user 2's defaults wrote nothing over user 1's choice.
    expect(readTableSettings(storage, 1, 'user-table')).toEqual({ hidden: ['email'], density: 'large' });
    user.value = 1;
    table.value = 'role-table';
    await nextTick();
    expect(state.hidden.value).toEqual([]);
    table.value = 'user-table';
    await nextTick();
    expect(state.hidden.value).toEqual(['email']);
  });

  it('remembers nothing before the user is known', () => {
    const storage = memoryStorage();
    const state = useTableSettings(
      () => undefined,
      () => 'user-table',
      storage,
    );
    state.toggle('email');
    expect(storage.length).toBe(0);
  });

  it('reads a broken or foreign value as the defaults', () => {
    const storage = memoryStorage();
    storage.setItem(tableSettingsKey(1, 'a'), '{not json');
    storage.setItem(tableSettingsKey(1, 'b'), JSON.stringify({ hidden: [3, 'x'], density: 'huge' }));
    expect(readTableSettings(storage, 1, 'a')).toEqual({ hidden: [], density: 'default' });
    expect(readTableSettings(storage, 1, 'b')).toEqual({ hidden: ['x'], density: 'default' });
  });
});
