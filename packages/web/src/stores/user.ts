/** User store: who is signed in, the menu tree and the permission codes (what `v-perm` and the router read). */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';

export interface MenuNode {
  id: number;
  parentId: number;
  type: 'catalog' | 'menu' | 'button';
  title: string;
  permission: string | null;
  path: string | null;
  component: string | null;
  icon: string | null;
  sort: number;
  enabled: boolean;
  hidden: boolean;
  children?: MenuNode[];
}

export interface Profile {
  id: number;
  account: string;
  realName: string;
  isSuperAdmin?: boolean;
}

export const useUserStore = defineStore('svc-user', () => {
  const profile = ref<Profile | undefined>();
  const menus = ref<MenuNode[]>([]);
  const permissions = ref<Set<string>>(new Set());
  const loaded = ref(false);

  const isSuperAdmin = computed(() => profile.value?.isSuperAdmin === true);

  async function load(api: ApiClient): Promise<void> {
    const [me, tree, codes] = await Promise.all([
      api.GET('/api/v1/personal/profile').then(unwrap),
      api.GET('/api/v1/personal/menu').then(unwrap),
      api.GET('/api/v1/personal/permissions').then(unwrap),
    ]);
    profile.value = me as Profile;
    menus.value = tree as MenuNode[];
    permissions.value = new Set((codes as string[]).map((c) => c.toUpperCase()));
    loaded.value = true;
  }

  /** True when the user holds the code (`METHOD:/api/v1/...`, case-insensitive). */
  function can(code: string): boolean {
    return permissions.value.has(code.toUpperCase());
  }

  function reset(): void {
    profile.value = undefined;
    menus.value = [];
    permissions.value = new Set();
    loaded.value = false;
  }

  return { profile, menus, permissions, loaded, isSuperAdmin, load, can, reset };
});
