/**
 * Stored labels in the console's language. The rows the service seeds (menus and their buttons, portal modules,
 * dictionaries, roles, the root organisation) and the titles its modules register (recycle-bin types) are stored
 * once, in English, and read the same by every client of the API; the console shows them in its own language
 * through a table of translations keyed by the stored text. A text an operator changed is no longer the seed's and
 * shows as stored, as does a user's own menu unless its text is exactly a seeded word (a role an operator names
 * "All data" reads as the seeded one would). Only labels go through it: names of people stay as stored (the seeded
 * super admin's excepted), and so does free text.
 *
 * A module brings translations of its own seeded words with `defineConsoleModule({ labels })`, an app with
 * `createConsole({ labels })` (over the built-in ones, a same text replaces).
 */
import { type InjectionKey, inject } from 'vue';
import { useI18n } from 'vue-i18n';

/** Translations per locale, keyed by the stored text (`{ 'zh-CN': { Users: '用户' } }`). */
export type Labels = Record<string, Readonly<Record<string, string>>>;

export const LABELS: InjectionKey<Readonly<Labels>> = Symbol('svc-labels');

/** `text` in `locale`: its translation when the table has one, else the text as stored. */
export function labelIn(labels: Readonly<Labels>, locale: string, text: string | null | undefined): string {
  if (!text) return '';
  return labels[locale]?.[text] ?? text;
}

/**
 * The label function of a component: stored text in, the text in the console's current language out (reactive
 * in a render: it reads the locale).
 *
 * @example const label = useLabel(); // …h('span', label(row.title))
 */
export function useLabel(): (text: string | null | undefined) => string {
  const { locale } = useI18n({ useScope: 'global' });
  const labels = inject(LABELS, {});
  return (text) => labelIn(labels, locale.value, text);
}

/** Merges label tables: later tables win for a same locale and text. */
export function mergeLabels(...tables: readonly (Readonly<Labels> | undefined)[]): Labels {
  const merged: Record<string, Record<string, string>> = {};
  for (const table of tables)
    for (const [locale, entries] of Object.entries(table ?? {}))
      merged[locale] = { ...merged[locale], ...entries };
  return merged;
}
