/**
 * Tabs store: the pages the user opened, in order; the home tab is never closed. Once the user is known
 * (`restore`), the tabs are kept in local storage per user (`svc.tabs.<userId>`), so a reload or the next sign-in
 * of the same user opens them again; another user of the browser never sees them.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Tab {
  path: string;
  title: string;
}

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);
export const tabsKey = (userId: string | number) => `svc.tabs.${userId}`;

function readTabs(key: string): Tab[] {
  try {
    const value = JSON.parse(storage()?.getItem(key) ?? '[]') as unknown;
    return Array.isArray(value)
      ? value.filter(
          (t): t is Tab =>
            typeof t?.path === 'string' && typeof t?.title === 'string' && t.path.startsWith('/'),
        )
      : [];
  } catch {
    return [];
  }
}

export const useTabsStore = defineStore('svc-tabs', () => {
  const tabs = ref<Tab[]>([]);
  /** Where the tabs are kept; none before the user is known. */
  let key: string | undefined;

  function save(): void {
    if (!key) return;
    try {
      storage()?.setItem(key, JSON.stringify(tabs.value));
    } catch {
      // Not remembered when the storage refuses.
    }
  }

  function open(tab: Tab): void {
    if (!tabs.value.some((t) => t.path === tab.path)) {
      tabs.value.push(tab);
      save();
    }
  }

  /** Closes a tab and answers the path to show next (the neighbour), if the closed one was active. */
  function close(path: string): string | undefined {
    const index = tabs.value.findIndex((t) => t.path === path);
    if (index < 0 || path === '/') return undefined;
    tabs.value.splice(index, 1);
    save();
    return (tabs.value[index] ?? tabs.value[index - 1])?.path ?? '/';
  }

  /**
   * Takes up the tabs user `userId` kept, those whose page still exists under its current title (`titleOf`
   * answers undefined for a page gone since, a menu taken away), before the ones opened meanwhile; from now on
   * the tabs are kept for this user.
   */
  function restore(userId: string | number, titleOf: (path: string) => string | undefined): void {
    key = tabsKey(userId);
    const kept = readTabs(key).flatMap((t) => {
      const title = titleOf(t.path);
      return title === undefined ? [] : [{ path: t.path, title }];
    });
    const extra = tabs.value.filter((t) => !kept.some((k) => k.path === t.path));
    tabs.value = [...kept, ...extra];
    save();
  }

  /** Forgets the tabs on screen (a sign-out); what a user kept stays for their next sign-in. */
  function reset(): void {
    key = undefined;
    tabs.value = [];
  }

  return { tabs, open, close, restore, reset };
});
