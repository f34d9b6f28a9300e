/**
 * Passkeys on two instances sharing one PostgreSQL database and one Redis (a key prefix of this file's own): a
 * challenge issued by one instance is completed at the other and then dead at both (single use across
 * instances), and a passkey an administrator removes on instance A is refused at once on instance B, where the
 * user's session ends too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, post, testClock } from './modules/mfa/helpers.contract.js';
import { assert, attest } from './modules/passkey/authenticator.contract.js';
import { bearer, login } from './testing/auth.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from './testing/index.js';

const prefix = `svc-passkey-${Math.random().toString(36).slice(2, 10)}:`;
const env = {
  Service__Cache__Redis__KeyPrefix: prefix,
  Service__Security__RateLimit__Enabled: 'false',
  Service__Security__Passkey__Enabled: 'true',
};

describe('passkeys on two instances (PostgreSQL + Redis)', () => {
  const clock = testClock();
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startTestServer({ dbType: 'PostgreSQL', cache: 'Redis', now: clock.now, env });
    b = await startTestServer({
      dbType: 'PostgreSQL',
      cache: 'Redis',
      now: clock.now,
      env,
      reuse: { database: a.database, contentRoot: a.contentRoot },
    });
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  it('completes a challenge of A at B once; a removal on A is refused at once on B', async () => {
    const userId = await addUser(a, { account: 'pk-two' });
    const token = (await login(a, 'pk-two', TEST_USER_PASSWORD)).accessToken;
    const reauth = await post(
      a,
      '/api/v1/auth/reauth',
      { method: 'password', password: TEST_USER_PASSWORD },
      bearer(token),
    );
    expect(reauth.body.code).toBe(0);
    const options = (await post(a, '/api/v1/personal/passkeys/options', {}, bearer(token))).body.data;
    const { credential, response } = attest(options.options);
    // Registered at B with A's challenge (the challenge lives in Redis).
    const added = await post(
      b,
      '/api/v1/personal/passkeys',
      { challengeId: options.challengeId, response },
      bearer(token),
    );
    expect(added.body.code).toBe(0);

    const started = (await post(a, '/api/v1/auth/passkey/options', {})).body.data;
    const assertion = assert(credential, started.options);
    const atB = await post(b, '/api/v1/auth/passkey/login', {
      challengeId: started.challengeId,
      response: assertion,
    });
    expect(atB.body.code).toBe(0);
    const replay = await post(a, '/api/v1/auth/passkey/login', {
      challengeId: started.challengeId,
      response: assertion,
    });
    expect(replay.body.code).toBe(40036);
    const session = atB.body.data.accessToken as string;

    const admin = (await login(a, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
    expect(
      (
        await post(
          a,
          '/api/v1/auth/reauth',
          { method: 'password', password: TEST_ADMIN_PASSWORD },
          bearer(admin),
        )
      ).body.code,
    ).toBe(0);
    const removed = await a.request(`/api/v1/sys/user/${userId}/passkeys/${added.body.data.id}`, {
      method: 'DELETE',
      headers: bearer(admin),
    });
    expect(((await removed.json()) as { code: number }).code).toBe(0);
    expect((await b.request('/api/v1/personal/passkeys', { headers: bearer(session) })).status).toBe(401);
    const next = (await post(b, '/api/v1/auth/passkey/options', {})).body.data;
    const refused = await post(b, '/api/v1/auth/passkey/login', {
      challengeId: next.challengeId,
      response: assert(credential, next.options),
    });
    expect(refused.body.code).toBe(40035);
  });
});
