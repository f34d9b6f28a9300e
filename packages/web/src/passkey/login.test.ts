/**
 * The login page's passkey controller against a fake browser and a fake service: offered only when the browser
 * can and the site info's passkey flag is on (no options asked for to find out); the autofill's pick logs in through the page's own login path; a
 * password login, the code step and leaving the page end the waiting request; a failed login, a dismissed
 * dialog and the browser's timeout start a fresh one (new options: challenges are single use), a run of
 * timeouts ends it; the button aborts the autofill and resumes it afterwards.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/envelope.js';
import type { AuthenticationResponse, LoginOutput, RequestCeremony } from './api.js';
import type { PasskeyBrowser } from './browser.js';
import { AUTOFILL_RESTARTS, createPasskeyLogin } from './login.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const domError = (name: string) => Object.assign(new Error(name), { name });

const output = (userId: number): LoginOutput => ({
  accessToken: `at-${userId}`,
  expiresAt: '2026-12-03T10:00:00.000Z',
  refreshToken: '',
  refreshExpiresAt: '2026-12-04T10:00:00.000Z',
  mustChangePassword: false,
  sessionMode: 'cookie',
  csrfRequired: true,
  userId,
  account: 'admin',
  name: 'Admin',
  isSuperAdmin: true,
});

const assertion = (challengeId: string): AuthenticationResponse => ({
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: challengeId, authenticatorData: 'ad', signature: 'sig' },
  clientExtensionResults: {},
});

interface Pending {
  autofill: boolean;
  ceremony: RequestCeremony;
  resolve: (r: AuthenticationResponse) => void;
  reject: (e: unknown) => void;
}

/** A browser whose ceremonies wait until the test answers them; `cancel` aborts the one under way. */
function fakeBrowser(opts: { supported?: boolean; autofill?: boolean } = {}) {
  const pending: Pending[] = [];
  let cancels = 0;
  const browser: PasskeyBrowser = {
    supported: () => opts.supported ?? true,
    autofillSupported: async () => opts.autofill ?? true,
    authenticate: (ceremony, autofill) =>
      new Promise((resolve, reject) => {
        // One ceremony at a time, as WebAuthnAbortService keeps it: a new one aborts the last.
        for (const p of pending.splice(0)) p.reject(domError('AbortError'));
        pending.push({ autofill, ceremony, resolve, reject });
      }),
    register: () => Promise.reject(new Error('not here')),
    cancel: () => {
      cancels++;
      for (const p of pending.splice(0)) p.reject(domError('AbortError'));
    },
  };
  return {
    browser,
    pending,
    get cancels() {
      return cancels;
    },
    /** The user picks their passkey (in the autofill list or the dialog). */
    pick() {
      const p = pending.shift();
      if (!p) throw new Error('no ceremony waiting');
      p.resolve(assertion(p.ceremony.challengeId));
    },
    fail(e: unknown) {
      const p = pending.shift();
      if (!p) throw new Error('no ceremony waiting');
      p.reject(e);
    },
  };
}

/** The service: numbered challenges, logins that answer the queued results. */
function fakeService(opts: { off?: boolean } = {}) {
  let serial = 0;
  const logins: string[] = [];
  const results: Array<LoginOutput | ApiError> = [];
  return {
    logins,
    results,
    get issued() {
      return serial;
    },
    /** The site info's passkey flag. */
    enabled: async () => !opts.off,
    api: {
      loginOptions: async (): Promise<RequestCeremony> => {
        if (opts.off) throw new ApiError(40037, 'error.auth.passkeyDisabled');
        serial++;
        return { challengeId: `c${serial}`, options: { challenge: `c${serial}`, allowCredentials: [] } };
      },
      login: async (challengeId: string, response: AuthenticationResponse) => {
        logins.push(`${challengeId}:${response.response.clientDataJSON}`);
        const next = results.shift() ?? output(1);
        if (next instanceof ApiError) throw next;
        return next;
      },
    },
  };
}

function setup(browserOpts?: Parameters<typeof fakeBrowser>[0], serviceOpts?: { off?: boolean }) {
  const browser = fakeBrowser(browserOpts);
  const service = fakeService(serviceOpts);
  const signedIn: number[] = [];
  const shown: string[] = [];
  const failures: unknown[] = [];
  let form = true;
  const controller = createPasskeyLogin({
    api: service.api,
    enabled: () => service.enabled(),
    browser: browser.browser,
    // As the page's `run`: errors are shown, never thrown.
    complete: async (login) => {
      try {
        signedIn.push((await login()).userId);
      } catch (e) {
        shown.push(e instanceof ApiError ? e.msgKey : String(e));
      }
    },
    failed: (e) => failures.push(e),
    formShown: () => form,
  });
  return {
    browser,
    service,
    controller,
    signedIn,
    shown,
    failures,
    setForm(v: boolean) {
      form = v;
    },
  };
}

describe('passkey login', () => {
  it('is not offered when the browser has no WebAuthn, and asks the service nothing then', async () => {
    const s = setup({ supported: false });
    await s.controller.start();
    expect(s.controller.offered.value).toBe(false);
    expect(s.service.issued).toBe(0);
  });

  it('is not offered when the site info says passkeys are off (module or switch), and asks for no options', async () => {
    const s = setup({}, { off: true });
    await s.controller.start();
    expect(s.controller.offered.value).toBe(false);
    expect(s.controller.autofillField.value).toBe(false);
    expect(s.browser.pending).toEqual([]);
    expect(s.service.issued).toBe(0);
  });

  it('is not offered when the site info cannot be read', async () => {
    const s = setup();
    s.service.enabled = () => Promise.reject(new Error('offline'));
    await s.controller.start();
    expect(s.controller.offered.value).toBe(false);
    expect(s.service.issued).toBe(0);
  });

  it('asks for options only when a ceremony starts (none without the autofill until the button)', async () => {
    const s = setup({ autofill: false });
    await s.controller.start();
    expect(s.controller.offered.value).toBe(true);
    expect(s.service.issued).toBe(0);
  });

  it('offers the button without autofill where the browser lacks conditional mediation', async () => {
    const s = setup({ autofill: false });
    await s.controller.start();
    expect(s.controller.offered.value).toBe(true);
    expect(s.controller.autofillField.value).toBe(false);
    expect(s.browser.pending).toEqual([]);
  });

  it('logs in with the passkey picked in the autofill, with the challenge of its options', async () => {
    const s = setup();
    await s.controller.start();
    await tick();
    expect(s.controller.autofillField.value).toBe(true);
    expect(s.browser.pending.map((p) => [p.autofill, p.ceremony.challengeId])).toEqual([[true, 'c1']]);
    s.browser.pick();
    await tick();
    expect(s.service.logins).toEqual(['c1:c1']);
    expect(s.signedIn).toEqual([1]);
  });

  it('after a refused login waits again with fresh options (a challenge is used once)', async () => {
    const s = setup();
    s.service.results.push(new ApiError(40035, 'error.auth.passkeyVerificationFailed'));
    await s.controller.start();
    await tick();
    s.browser.pick();
    await tick();
    expect(s.shown).toEqual(['error.auth.passkeyVerificationFailed']);
    expect(s.browser.pending.map((p) => [p.autofill, p.ceremony.challengeId])).toEqual([[true, 'c2']]);
    s.browser.pick();
    await tick();
    expect(s.service.logins).toEqual(['c1:c1', 'c2:c2']);
    expect(s.signedIn).toEqual([1]);
  });

  it('restarts after the browser ends the request on its timeout, and gives up after a run of them', async () => {
    const s = setup();
    await s.controller.start();
    for (let i = 1; i <= AUTOFILL_RESTARTS; i++) {
      await tick();
      expect(s.browser.pending.map((p) => p.ceremony.challengeId)).toEqual([`c${i}`]);
      s.browser.fail(domError('NotAllowedError'));
    }
    await tick();
    expect(s.browser.pending).toEqual([]);
    expect(s.controller.autofill.value).toBe(false);
    expect(s.failures).toEqual([]);
  });

  it('ends the waiting request while a password login runs, and takes it up when the form stays', async () => {
    const s = setup();
    await s.controller.start();
    await tick();
    s.controller.pause();
    await tick();
    expect(s.browser.cancels).toBe(1);
    expect(s.browser.pending).toEqual([]);
    expect(s.controller.autofill.value).toBe(false);
    s.controller.resume();
    await tick();
    expect(s.browser.pending.map((p) => [p.autofill, p.ceremony.challengeId])).toEqual([[true, 'c2']]);
  });

  it('does not take it up on the code step, nor once the page is left', async () => {
    const s = setup();
    await s.controller.start();
    await tick();
    s.setForm(false);
    s.controller.pause();
    s.controller.resume();
    await tick();
    expect(s.browser.pending).toEqual([]);
    s.setForm(true);
    s.controller.stop();
    s.controller.resume();
    await tick();
    expect(s.browser.pending).toEqual([]);
    expect(s.service.issued).toBe(1);
  });

  it('a page left before the autofill started starts none', async () => {
    const s = setup();
    const started = s.controller.start();
    s.controller.stop();
    await started;
    await tick();
    expect(s.browser.pending).toEqual([]);
  });

  it('the button aborts the autofill, logs in through the dialog, and the autofill comes back after a failure', async () => {
    const s = setup();
    await s.controller.start();
    await tick();
    const pressed = s.controller.signIn();
    await tick();
    expect(s.browser.pending.map((p) => [p.autofill, p.ceremony.challengeId])).toEqual([[false, 'c2']]);
    expect(s.controller.busy.value).toBe(true);
    s.browser.fail(domError('NotAllowedError'));
    await pressed;
    expect(s.failures.map((e) => (e as Error).name)).toEqual(['NotAllowedError']);
    expect(s.controller.busy.value).toBe(false);
    await tick();
    expect(s.browser.pending.map((p) => [p.autofill, p.ceremony.challengeId])).toEqual([[true, 'c3']]);

    const again = s.controller.signIn();
    await tick();
    s.browser.pick();
    await again;
    expect(s.service.logins).toEqual(['c4:c4']);
    expect(s.signedIn).toEqual([1]);
  });

  it('the button reports a refused options call (the switch turned off meanwhile)', async () => {
    const s = setup({ autofill: false });
    await s.controller.start();
    s.service.api.loginOptions = async () => {
      throw new ApiError(40037, 'error.auth.passkeyDisabled');
    };
    await s.controller.signIn();
    expect(s.failures.map((e) => (e as ApiError).code)).toEqual([40037]);
  });
});
