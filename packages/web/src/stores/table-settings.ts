/**
 * What a user set on one table: the hidden columns and the density. Kept in local storage under the user's id and
 * the table's id (`svc.table.<user>.<table>`), so two users of one browser, or two tables of one page, never share
 * a choice. Nothing secret lives here: column keys and a word.
 */
import { type Ref, ref, watch } from 'vue';

export type Density = 'compact' | 'default' | 'large';
export const DENSITIES: readonly Density[] = ['compact', 'default', 'large'];

export interface TableSettings {
  /** Keys of the columns the user hid. @default [] */
  hidden: string[];
  /** @default 'default' */
  density: Density;
}

const defaults = (): TableSettings => ({ hidden: [], density: 'default' });

export function tableSettingsKey(userId: string | number, tableId: string): string {
  return `svc.table.${userId}.${tableId}`;
}

/** The stored settings; anything unreadable (another version's shape, hand-edited storage) reads as the defaults. */
export function readTableSettings(
  storage: Storage | undefined,
  userId: string | number,
  tableId: string,
): TableSettings {
  const raw = storage?.getItem(tableSettingsKey(userId, tableId));
  if (!raw) return defaults();
  try {
    const value = JSON.parse(raw) as Partial<TableSettings>;
    return {
      hidden: Array.isArray(value.hidden) ? value.hidden.filter((k) => typeof k === 'string') : [],
      density: DENSITIES.includes(value.density as Density) ? (value.density as Density) : 'default',
    };
  } catch {
    return defaults();
  }
}

export function writeTableSettings(
  storage: Storage | undefined,
  userId: string | number,
  tableId: string,
  settings: TableSettings,
): void {
  try {
    storage?.setItem(tableSettingsKey(userId, tableId), JSON.stringify(settings));
  } catch {
    // A full or refused storage only means the choice is not remembered.
  }
}

export interface TableSettingsState {
  hidden: Ref<string[]>;
  density: Ref<Density>;
  /** Shows a hidden column, hides a shown one. */
  toggle: (key: string) => void;
  /** Every column shown again, the default density. */
  reset: () => void;
}

/**
 * The settings of table `tableId()` for user `userId()`, read again when either changes and written on each
 * change. Without a user (not loaded yet) the choice lives only in memory.
 */
export function useTableSettings(
  userId: () => string | number | undefined,
  tableId: () => string,
  storage: Storage | undefined = typeof localStorage === 'undefined' ? undefined : localStorage,
): TableSettingsState {
  const hidden = ref<string[]>([]);
  const density = ref<Density>('default');
  let loading = false;
  watch(
    [userId, tableId],
    ([user, table]) => {
      const stored = user === undefined ? defaults() : readTableSettings(storage, user, table);
      loading = true;
      hidden.value = stored.hidden;
      density.value = stored.density;
      loading = false;
    },
    { immediate: true },
  );
  watch(
    [hidden, density],
    () => {
      const user = userId();
      if (loading || user === undefined) return;
      writeTableSettings(storage, user, tableId(), { hidden: [...hidden.value], density: density.value });
    },
    { flush: 'sync' },
  );
  return {
    hidden,
    density,
    toggle: (key) => {
      hidden.value = hidden.value.includes(key)
        ? hidden.value.filter((k) => k !== key)
        : [...hidden.value, key];
    },
    reset: () => {
      hidden.value = [];
      density.value = 'default';
    },
  };
}
