/** The built-in locales, keyed by msgKey. */
import { enUS } from './en-US.js';
import { zhCN } from './zh-CN.js';

export const builtInMessages = { 'zh-CN': zhCN, 'en-US': enUS } as const;
export type ConsoleLocale = keyof typeof builtInMessages;
export { enUS, zhCN };
