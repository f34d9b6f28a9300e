/**
 * Theme store: light or dark. It follows the system (`prefers-color-scheme`) until the user picks one in the
 * header; that choice is kept in local storage (`svc.theme`) for the next visit. `resolveDark` is the rule.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';

export type ThemeChoice = 'light' | 'dark';

const THEME_KEY = 'svc.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Dark when the user chose dark, or chose nothing and the system is dark. */
export function resolveDark(choice: ThemeChoice | undefined, systemDark: boolean): boolean {
  return choice === undefined ? systemDark : choice === 'dark';
}

/** The stored choice; anything else (nothing stored, another value) means "follow the system". */
export function readThemeChoice(storage: Pick<Storage, 'getItem'> | undefined): ThemeChoice | undefined {
  const value = storage?.getItem(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : undefined;
}

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export const useThemeStore = defineStore('svc-theme', () => {
  const choice = ref<ThemeChoice | undefined>(readThemeChoice(storage()));
  const media = typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : undefined;
  const systemDark = ref(media?.matches ?? false);
  // The store lives as long as the page: one listener for the page's life.
  media?.addEventListener('change', (event) => {
    systemDark.value = event.matches;
  });
  const dark = computed(() => resolveDark(choice.value, systemDark.value));

  /** The user's pick, remembered. */
  function choose(value: ThemeChoice): void {
    choice.value = value;
    try {
      storage()?.setItem(THEME_KEY, value);
    } catch {
      // Not remembered when the storage refuses; the page still switches.
    }
  }

  function toggle(): void {
    choose(dark.value ? 'light' : 'dark');
  }

  return { choice, systemDark, dark, choose, toggle };
});
