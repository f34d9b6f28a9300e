/**
 * `v-perm="'POST:/api/v1/sys/user'"` (or an array: any of them) keeps an element only when the user holds the
 * permission; the super admin holds every code the service lists for them.
 */
import type { Directive } from 'vue';
import { useUserStore } from '../stores/user.js';

export const vPerm: Directive<HTMLElement, string | string[]> = {
  mounted(el, binding) {
    const user = useUserStore();
    const codes = Array.isArray(binding.value) ? binding.value : [binding.value];
    if (!codes.some((code) => user.can(code))) el.remove();
  },
};
