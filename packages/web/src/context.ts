/** What the console shares with its pages: the typed client and the options it was created with. */
import type { Client } from 'openapi-fetch';
import type { Component } from 'vue';
import { type InjectionKey, inject } from 'vue';
import type { ApiClient } from './api/client.js';
import type { ConsoleModule } from './console-modules.js';
import type { Labels } from './labels.js';

/** A page: a component or a lazy import of one. */
export type PageLoader = Component | (() => Promise<unknown>);

export interface ConsoleOptions {
  /** Where the API lives. @default '' (same origin) */
  apiBase?: string;
  /** Shown in the header. @default '0.0.0' */
  version?: string;
  /** Pages by key (`system/user/index`, `login`, `home`…): a built-in or a module's key is replaced. */
  pages?: Record<string, PageLoader>;
  /** Modules' pages and messages (`defineConsoleModule`), over the built-in ones and under `pages`/`messages`. */
  modules?: readonly ConsoleModule[];
  /** Extra or overriding messages per locale. */
  messages?: Record<string, Record<string, string>>;
  /** Translations of stored words per locale, keyed by the text (`useLabel`), over the built-in and modules' ones. */
  labels?: Labels;
  /**
   * The language when the user has not chosen one and the browser asks for none the console has.
   * @default 'zh-CN'
   */
  locale?: string;
  /** @default 'Admin console' (from the locale) */
  title?: string;
}

export interface ConsoleContext {
  api: ApiClient;
  options: Required<Pick<ConsoleOptions, 'apiBase' | 'version'>> & ConsoleOptions;
  /** Opens the re-authentication dialog; resolves true once the window is open. */
  reauthenticate: () => Promise<boolean>;
}

export const CONSOLE: InjectionKey<ConsoleContext> = Symbol('svc-console');

export function useConsole(): ConsoleContext {
  const context = inject(CONSOLE);
  if (!context) throw new Error('useConsole() outside a console app');
  return context;
}

export const useApi = (): ApiClient => useConsole().api;

/**
 * The console's client typed with a module's own contract: `Paths` is what openapi-typescript generates from the
 * module's OpenAPI document. The same client as `useApi()` (the same session, CSRF header, refresh and
 * re-authentication), only its types name the module's routes.
 *
 * @example
 * import type { paths } from './schema.js'; // openapi-typescript of the module's routes
 * const api = useModuleApi<paths>();
 */
export const useModuleApi = <Paths extends object>(): Client<Paths> =>
  useConsole().api as unknown as Client<Paths>;
