/**
 * The personal centre's passkeys, without the page: the list, and adding one in the order the service asks
 * for it. Adding starts with the registration options, which need a recent re-authentication (the client
 * chain opens the dialog on 40024 and replays the call), then asks the name, then runs the browser's ceremony
 * and stores the credential under that name. Rename and remove reload the list; remove needs the
 * re-authentication too (the chain again).
 */
import { ref } from 'vue';
import type { CreationCeremony, PasskeyApi, PasskeyRow } from './api.js';
import type { PasskeyBrowser } from './browser.js';

export interface PersonalPasskeysDeps {
  api: Pick<PasskeyApi, 'list' | 'registrationOptions' | 'register' | 'rename' | 'remove'>;
  browser: Pick<PasskeyBrowser, 'supported' | 'register'>;
}

export function createPersonalPasskeys(deps: PersonalPasskeysDeps) {
  const rows = ref<PasskeyRow[]>([]);
  /** The list answered: the module is on (its routes are served). */
  const available = ref(false);
  /** Options in hand, waiting for the name. */
  const naming = ref<CreationCeremony | undefined>();
  const busy = ref(false);
  const supported = deps.browser.supported();

  async function load(): Promise<void> {
    rows.value = await deps.api.list();
    available.value = true;
  }

  async function busyWhile<T>(run: () => Promise<T>): Promise<T> {
    busy.value = true;
    try {
      return await run();
    } finally {
      busy.value = false;
    }
  }

  /** "Add a passkey": the options (re-authentication first, by the chain), then the name is asked. */
  const startAdd = () =>
    busyWhile(async () => {
      naming.value = await deps.api.registrationOptions();
    });

  /** The name given: the browser's ceremony, then the credential stored; the list reloaded. */
  const finishAdd = (name: string) =>
    busyWhile(async () => {
      const ceremony = naming.value;
      if (!ceremony) return undefined;
      // A challenge is used once: a failure below starts over from the options.
      naming.value = undefined;
      const response = await deps.browser.register(ceremony);
      const added = await deps.api.register(ceremony.challengeId, response, name);
      await load();
      return added;
    });

  function cancelAdd(): void {
    naming.value = undefined;
  }

  const rename = (id: number, name: string) =>
    busyWhile(async () => {
      await deps.api.rename(id, name);
      await load();
    });

  const remove = (id: number) =>
    busyWhile(async () => {
      await deps.api.remove(id);
      await load();
    });

  return { rows, available, naming, busy, supported, load, startAdd, finishAdd, cancelAdd, rename, remove };
}
