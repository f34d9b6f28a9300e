/**
 * A module's part of the console: its pages under its menus' component paths and its messages. `createConsole({
 * modules })` adds them over the built-in pages and locales, and the app's own `pages`/`messages` over those, so
 * the shell registers a module's pages the way the server registers its routes: one object per module. Two
 * modules claiming one page key, or one name, stop the console with a message naming both.
 */
import type { PageLoader } from './context.js';
import { type Labels, mergeLabels } from './labels.js';

export interface ConsoleModule {
  /** The module's name (the server module's `name`, e.g. `Shop`), for messages. */
  name: string;
  /** Pages by key: a menu's `component` path (`shop/product/index`); a built-in key is replaced. */
  pages?: Record<string, PageLoader>;
  /** Messages per locale (flat keys), over the built-in ones. */
  messages?: Record<string, Record<string, string>>;
  /**
   * Translations of the module's seeded words (its menus' titles, its recycle-bin types…) per locale, keyed by
   * the stored text: `{ 'zh-CN': { Products: '商品' } }` (see `useLabel`).
   */
  labels?: Labels;
}

/** A module's console part, typed (an identity: it only checks the shape). */
export const defineConsoleModule = <M extends ConsoleModule>(module: M): M => module;

type Messages = Record<string, Record<string, string>>;

/** The pages, messages and labels of the console: `base`, then each module's, then the app's own (`own`). */
export function composeConsole(
  base: { pages: Record<string, PageLoader>; messages: Readonly<Messages>; labels?: Readonly<Labels> },
  modules: readonly ConsoleModule[],
  own: { pages?: Record<string, PageLoader>; messages?: Messages; labels?: Labels } = {},
): { pages: Record<string, PageLoader>; messages: Messages; labels: Labels } {
  const pages = { ...base.pages };
  const messages: Messages = {};
  const merge = (extra: Messages | undefined) => {
    for (const [locale, entries] of Object.entries(extra ?? {}))
      messages[locale] = { ...messages[locale], ...entries };
  };
  merge(base.messages as Messages);
  const names = new Set<string>();
  const owners = new Map<string, string>();
  for (const module of modules) {
    if (names.has(module.name)) throw new Error(`Two console modules are named ${module.name}.`);
    names.add(module.name);
    for (const [key, page] of Object.entries(module.pages ?? {})) {
      const owner = owners.get(key);
      if (owner !== undefined)
        throw new Error(`Console modules ${owner} and ${module.name} both register the page "${key}".`);
      owners.set(key, module.name);
      pages[key] = page;
    }
    merge(module.messages);
  }
  Object.assign(pages, own.pages);
  merge(own.messages);
  const labels = mergeLabels(base.labels, ...modules.map((m) => m.labels), own.labels);
  return { pages, messages, labels };
}
