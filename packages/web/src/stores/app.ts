/** App store: locale (remembered), sidebar state and the version shown in the header. */
import { defineStore } from 'pinia';
import { ref } from 'vue';

const LOCALE_KEY = 'svc.locale';

export const useAppStore = defineStore('svc-app', () => {
  const locale = ref(globalThis.localStorage?.getItem(LOCALE_KEY) ?? '');
  const collapsed = ref(false);
  const version = ref('0.0.0');

  function setLocale(value: string): void {
    locale.value = value;
    globalThis.localStorage?.setItem(LOCALE_KEY, value);
  }

  return { locale, collapsed, version, setLocale };
});
