/** User store: who is signed in, the menu tree and the permission codes (what `v-perm` and the router read). */

import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import type { components } from '../api/schema.js';

export type MenuNode = components['schemas']['MenuNode'];

export type Profile = components['schemas']['Profile'];

/** A portal module the user reaches (`/personal/modules`). */
export type PortalModule = components['schemas']['PortalModule'];

const MODULE_KEY = 'svc.module';
const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export const useUserStore = defineStore('svc-user', () => {
  const profile = ref<Profile | undefined>();
  const menus = ref<MenuNode[]>([]);
  const permissions = ref<Set<string>>(new Set());
  const loaded = ref(false);
  /** Portal modules the user reaches (empty when the `Module` area is off) and the one the sidebar shows. */
  const modules = ref<PortalModule[]>([]);
  const moduleId = ref<number | null>(null);
  /** The sidebar: the current module's tree, or the whole tree without modules. Routes come from `menus`. */
  const sidebar = ref<MenuNode[]>([]);

  const isSuperAdmin = computed(() => profile.value?.isSuperAdmin === true);

  async function load(api: ApiClient): Promise<void> {
    const [me, tree, codes] = await Promise.all([
      api.GET('/api/v1/personal/profile').then(unwrap),
      api.GET('/api/v1/personal/menu').then(unwrap),
      api.GET('/api/v1/personal/permissions').then(unwrap),
    ]);
    profile.value = me;
    menus.value = tree;
    permissions.value = new Set(codes.map((c) => c.toUpperCase()));
    // The portal is optional (module `Module` may be off: 404): without it the sidebar is the whole tree.
    const mine = await api
      .GET('/api/v1/personal/modules')
      .then(unwrap)
      .catch(() => ({ modules: [] as PortalModule[], defaultModuleId: null }));
    modules.value = mine.modules;
    const remembered = Number(storage()?.getItem(MODULE_KEY) ?? Number.NaN);
    const pick = [remembered, mine.defaultModuleId, mine.modules[0]?.id].find((id) =>
      mine.modules.some((m) => m.id === id),
    );
    await showModule(api, pick ?? null);
    loaded.value = true;
  }

  /**
   * Shows module `id` in the sidebar (remembered for the next visit): its top-level entries and those of no
   * module (the server's `?moduleId=` view leaves the latter out; here they stay reachable). null: the whole tree.
   */
  async function showModule(_api: ApiClient, id: number | null): Promise<void> {
    moduleId.value = id;
    sidebar.value =
      id === null ? menus.value : menus.value.filter((n) => n.moduleId === id || n.moduleId == null);
    if (id !== null) storage()?.setItem(MODULE_KEY, String(id));
  }

  /** True when the user holds the code (`METHOD:/api/v1/...`, case-insensitive). */
  function can(code: string): boolean {
    return permissions.value.has(code.toUpperCase());
  }

  function reset(): void {
    profile.value = undefined;
    menus.value = [];
    sidebar.value = [];
    modules.value = [];
    moduleId.value = null;
    permissions.value = new Set();
    loaded.value = false;
  }

  return {
    profile,
    menus,
    sidebar,
    modules,
    moduleId,
    permissions,
    loaded,
    isSuperAdmin,
    load,
    showModule,
    can,
    reset,
  };
});
