/** Injection keys of the console's shared pieces. */
import type { InjectionKey } from 'vue';
import type { createReauth } from './reauth.js';

export const REAUTH: InjectionKey<ReturnType<typeof createReauth>> = Symbol('svc-reauth');
