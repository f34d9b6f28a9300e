/**
 * The login page's passkey part, without the page: whether to offer "Sign in with a passkey" (the browser can,
 * and the site info's `passkey` flag says passkeys are on: module Passkey and its switch), the button's ceremony,
 * and the browser's autofill (conditional mediation) while the password form is shown. No options are asked for
 * until a ceremony starts.
 *
 * - The autofill waits in the background on the account field (`autocomplete="username webauthn"`); when the
 *   user picks a passkey there, the login goes through `complete` exactly as a password login's does. A failed
 *   login (or an autofill request the browser ended on its timeout) starts a new one with fresh options, since a
 *   challenge is single use; three timeouts in a row end it.
 * - `pause()` ends it while the user signs in another way (the password, the code step), `resume()` starts it
 *   again, `stop()` ends it for good (the page is left): nothing of it outlives the page.
 * - The button aborts the autofill (one ceremony at a time), runs the browser's dialog and resumes the
 *   autofill afterwards while the password form is still shown.
 */
import { ref } from 'vue';
import type { LoginOutput, PasskeyApi, RequestCeremony } from './api.js';
import { describeFailure, type PasskeyBrowser } from './browser.js';

export interface PasskeyLoginDeps {
  api: Pick<PasskeyApi, 'loginOptions' | 'login'>;
  /** Whether the service has passkeys on (the site info's `features.passkey`); a rejection counts as off. */
  enabled: () => Promise<boolean>;
  browser: PasskeyBrowser;
  /** Runs a login as the page runs a password one (tokens, redirect, second-factor step, error display). */
  complete: (login: () => Promise<LoginOutput>) => Promise<void>;
  /** A ceremony's failure before any login call (the user closed the dialog…), for the page to show. */
  failed: (error: unknown) => void;
  /** The page shows the form the autofill belongs to (the password step, not the code step). */
  formShown: () => boolean;
  /** Resolves once the page shows `autofillField` (the browser looks for the field when the request starts). */
  rendered?: () => Promise<void>;
}

/** Autofill requests the browser ends on their own (timeout) before the controller stops asking. */
export const AUTOFILL_RESTARTS = 3;

export function createPasskeyLogin(deps: PasskeyLoginDeps) {
  /** "Sign in with a passkey" is shown. */
  const offered = ref(false);
  /** The browser has the autofill: the account field carries `webauthn` in its autocomplete. */
  const autofillField = ref(false);
  /** An autofill request is waiting (or about to). */
  const autofill = ref(false);
  /** The button's ceremony is under way. */
  const busy = ref(false);
  let autofillSupported = false;
  let stopped = false;
  /** Bumped by every pause and every button press: an autofill loop of an older epoch ends. */
  let epoch = 0;
  let running: number | undefined;

  async function autofillLoop(): Promise<void> {
    const mine = ++epoch;
    running = mine;
    autofill.value = true;
    let ceremony: RequestCeremony | undefined;
    let timeouts = 0;
    try {
      while (mine === epoch && !stopped && deps.formShown()) {
        ceremony ??= await deps.api.loginOptions();
        if (mine !== epoch || stopped) return;
        const started = ceremony;
        ceremony = undefined;
        let response: Awaited<ReturnType<PasskeyBrowser['authenticate']>>;
        try {
          response = await deps.browser.authenticate(started, true);
        } catch (e) {
          if (mine !== epoch || stopped || describeFailure(e) !== 'dismissed') return;
          if (++timeouts >= AUTOFILL_RESTARTS) return;
          continue;
        }
        timeouts = 0;
        await deps.complete(() => deps.api.login(started.challengeId, response));
      }
    } catch {
      // Options refused meanwhile (the switch turned off, the network): the button still reports it.
    } finally {
      if (running === mine) {
        running = undefined;
        autofill.value = false;
      }
    }
  }

  /** On mount: finds out whether passkeys are offered and starts the autofill where the browser has it. */
  async function start(): Promise<void> {
    if (!deps.browser.supported()) return;
    const on = await deps.enabled().catch(() => false);
    if (!on || stopped) return;
    offered.value = true;
    autofillSupported = await deps.browser.autofillSupported();
    if (!autofillSupported || stopped) return;
    autofillField.value = true;
    const at = epoch;
    await deps.rendered?.();
    // Paused meanwhile (the password was sent): `resume()` starts it with fresh options.
    if (epoch === at && !stopped) void autofillLoop();
  }

  function pause(): void {
    epoch++;
    if (running !== undefined) deps.browser.cancel();
  }

  function resume(): void {
    if (stopped || !offered.value || !autofillSupported || running !== undefined || busy.value) return;
    if (!deps.formShown()) return;
    void autofillLoop();
  }

  function stop(): void {
    stopped = true;
    pause();
  }

  /** "Sign in with a passkey": the browser's own dialog. */
  async function signIn(): Promise<void> {
    if (busy.value) return;
    busy.value = true;
    pause();
    try {
      const ceremony = await deps.api.loginOptions();
      const response = await deps.browser.authenticate(ceremony, false);
      await deps.complete(() => deps.api.login(ceremony.challengeId, response));
    } catch (e) {
      if (!stopped) deps.failed(e);
    } finally {
      busy.value = false;
    }
    resume();
  }

  return { offered, autofillField, autofill, busy, start, pause, resume, stop, signIn };
}

export type PasskeyLogin = ReturnType<typeof createPasskeyLogin>;
