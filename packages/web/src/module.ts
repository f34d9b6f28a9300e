/**
 * `@svc/web/module`: what a module's console part imports, without the console's components (so its page logic
 * loads, and is tested, without a Vue compiler): the console-module definition, the client typed with the
 * module's contract, and the CRUD page composable. The root entry exports all of it too.
 */
export {
  type ConsoleModule,
  composeConsole,
  defineConsoleModule,
} from './console-modules.js';
export { type PageLoader, useModuleApi } from './context.js';
export * from './crud/index.js';
export { type Labels, labelIn, mergeLabels, useLabel } from './labels.js';
export { builtInLabels } from './locales/labels.js';
