/** Tabs store: the pages the user opened, in order; the home tab is never closed. */
import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Tab {
  path: string;
  title: string;
}

export const useTabsStore = defineStore('svc-tabs', () => {
  const tabs = ref<Tab[]>([]);

  function open(tab: Tab): void {
    if (!tabs.value.some((t) => t.path === tab.path)) tabs.value.push(tab);
  }

  /** Closes a tab and answers the path to show next (the neighbour), if the closed one was active. */
  function close(path: string): string | undefined {
    const index = tabs.value.findIndex((t) => t.path === path);
    if (index < 0 || path === '/') return undefined;
    tabs.value.splice(index, 1);
    return (tabs.value[index] ?? tabs.value[index - 1])?.path ?? '/';
  }

  function reset(): void {
    tabs.value = [];
  }

  return { tabs, open, close, reset };
});
