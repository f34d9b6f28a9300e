/** What the console shares with its pages: the typed client and the options it was created with. */
import type { Component } from 'vue';
import { type InjectionKey, inject } from 'vue';
import type { ApiClient } from './api/client.js';

/** A page: a component or a lazy import of one. */
export type PageLoader = Component | (() => Promise<unknown>);

export interface ConsoleOptions {
  /** Where the API lives. @default '' (same origin) */
  apiBase?: string;
  /** Shown in the header. @default '0.0.0' */
  version?: string;
  /** Pages by key (`system/user/index`, `login`, `home`…): a built-in key is replaced. */
  pages?: Record<string, PageLoader>;
  /** Extra or overriding messages per locale. */
  messages?: Record<string, Record<string, string>>;
  /** @default 'zh-CN' */
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
