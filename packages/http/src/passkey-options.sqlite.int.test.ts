/**
 * Module Passkey's switch and options on SQLite (one database, two starts): listed in DisabledModules it leaves no
 * route, table or code; with `UserVerification=preferred`, a passkey used without user verification stands for
 * the password only, so a TOTP-bound account still gets its TOTP step (40018), while a verified one skips it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, post, testClock } from './modules/mfa/helpers.contract.js';
import { bindTotp } from './modules/mfa/totp.contract.js';
import { assert, attest, FLAGS } from './modules/passkey/authenticator.contract.js';
import { bearer, login } from './testing/auth.js';
import { setRuntimeConfig, startTestServer, TEST_USER_PASSWORD, type TestServer } from './testing/index.js';

describe('module Passkey off, and without user verification', () => {
  const clock = testClock();
  let t: TestServer;
  const off = { status: 0, tables: [] as string[], codes: [] as number[] };

  beforeAll(async () => {
    t = await startTestServer({ env: { Service__Api__DisabledModules__0: 'Passkey' }, now: clock.now });
    off.status = (await t.request('/api/v1/auth/passkey/options', { method: 'POST' })).status;
    const { adapter, db } = t.server.database.database;
    off.tables = (await adapter.listTables(db)).filter((n) => n.toLowerCase().includes('passkey'));
    const codes = (await (await t.request('/api/v1/meta/error-codes')).json()) as { data: unknown };
    off.codes = (codes.data as { code: number }[]).map((c) => c.code).filter((c) => c >= 40035 && c <= 40039);
    await t.stop();
    t = await startTestServer({
      now: clock.now,
      env: {
        Service__Security__Passkey__UserVerification: 'preferred',
        Service__Security__Passkey__Enabled: 'true',
        Service__Security__RateLimit__Enabled: 'false',
      },
      reuse: { database: t.database, contentRoot: t.contentRoot },
    });
  });
  afterAll(() => t?.close());

  it('off: no route, no table, no code', () => {
    expect(off).toEqual({ status: 404, tables: [], codes: [] });
  });

  it('on: an unverified passkey login asks the TOTP step of a bound account; a verified one does not', async () => {
    await addUser(t, { account: 'pk-uv' });
    const token = (await login(t, 'pk-uv', TEST_USER_PASSWORD)).accessToken;
    expect(
      (
        await post(
          t,
          '/api/v1/auth/reauth',
          { method: 'password', password: TEST_USER_PASSWORD },
          bearer(token),
        )
      ).body.code,
    ).toBe(0);
    const options = (await post(t, '/api/v1/personal/passkeys/options', {}, bearer(token))).body.data;
    // The deploy floor keeps passkeys on whatever the runtime row says.
    expect(options.options.authenticatorSelection.userVerification).toBe('preferred');
    const { credential, response } = attest(options.options, { flags: FLAGS.UP | FLAGS.AT });
    const added = await post(
      t,
      '/api/v1/personal/passkeys',
      { challengeId: options.challengeId, response },
      bearer(token),
    );
    expect(added.body.code).toBe(0);
    await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
    await bindTotp(t, clock, 'pk-uv');
    const passkeyLogin = async (flags: number) => {
      const started = (await post(t, '/api/v1/auth/passkey/options', {})).body.data;
      return post(t, '/api/v1/auth/passkey/login', {
        challengeId: started.challengeId,
        response: assert(credential, started.options, { flags }),
      });
    };
    const unverified = await passkeyLogin(FLAGS.UP);
    expect(unverified.body).toMatchObject({ code: 40018, args: { challengeId: expect.any(String) } });
    expect((await passkeyLogin(FLAGS.UP | FLAGS.UV)).body.code).toBe(0);
  });
});
