/** The three log pages as page components (one view, three kinds). */
import { defineComponent, h } from 'vue';
import LogPage from './LogPage.vue';

const logPage = (kind: 'op' | 'login' | 'exception') =>
  defineComponent({ name: `Svc${kind}LogPage`, setup: () => () => h(LogPage, { kind }) });

export const OpLogPage = logPage('op');
export const LoginLogPage = logPage('login');
export const ExceptionLogPage = logPage('exception');
