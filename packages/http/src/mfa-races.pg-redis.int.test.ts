/**
 * Second-factor races across two instances on one PostgreSQL database and one Redis (a key prefix of this file's
 * own), with one movable clock: one TOTP code opens one session whichever instances its submissions reach, one
 * recovery code is used once, a code spent at one instance does not re-authenticate at the other, and an
 * administrator's clear on one instance ends a TOTP step whose session the other is opening, and a number changed
 * on one instance ends the SMS step or SMS login code the other is completing (its resend included). Concurrency
 * comes from `Promise.all` and hooks, never from sleeps.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addUser,
  lastSmsCode,
  nextUtcMorning,
  post,
  smsLines,
  testClock,
} from './modules/mfa/helpers.contract.js';
import { totpCode } from './modules/mfa/rfc6238.contract.js';
import { bindTotp } from './modules/mfa/totp.contract.js';
import { bearer, json, login } from './testing/auth.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from './testing/index.js';

const prefix = `svc-mfa-${Math.random().toString(36).slice(2, 10)}:`;
const env = {
  Service__Cache__Redis__KeyPrefix: prefix,
  Service__Security__RateLimit__Enabled: 'false',
};

describe('second-factor races on two instances (PostgreSQL + Redis)', () => {
  // The SMS daily limit counts per UTC day (see nextUtcMorning).
  const clock = testClock(nextUtcMorning());
  let a: TestServer;
  let b: TestServer;

  async function challenge(t: TestServer, account: string): Promise<string> {
    const answer = await post(t, '/api/v1/auth/login', { account, password: TEST_USER_PASSWORD });
    expect(answer.body.code).toBe(40018);
    return answer.body.args.challengeId as string;
  }
  const totpLogin = (t: TestServer, challengeId: string, code: string) =>
    post(t, '/api/v1/auth/login/totp', { challengeId, code });
  /** A bound user that has signed in once (so later password logins do not rehash a first login's hash). */
  async function boundUser(account: string) {
    const userId = await addUser(a, { account });
    const bound = await bindTotp(a, clock, account);
    expect(
      (await totpLogin(a, await challenge(a, account), totpCode(bound.seed, clock.now()))).body.code,
    ).toBe(0);
    clock.advance(30);
    return { userId, ...bound };
  }

  beforeAll(async () => {
    a = await startTestServer({ dbType: 'PostgreSQL', cache: 'Redis', now: clock.now, env });
    b = await startTestServer({
      dbType: 'PostgreSQL',
      cache: 'Redis',
      now: clock.now,
      env,
      reuse: { database: a.database, contentRoot: a.contentRoot },
    });
    for (const key of ['sys.security.totp.enabled', 'sys.security.smsLogin.enabled']) {
      expect(await a.server.database.repos.configs.updateValue(key, 'true')).toBe(true);
      for (const t of [a, b]) await t.server.configStore.invalidate(key);
    }
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  it('opens one session for one code sent to both instances, for one challenge and for two', async () => {
    const { userId, seed } = await boundUser('pr-one');
    const live = () => a.server.database.repos.sessions.listLive(userId);
    const before = (await live()).length;
    const one = await challenge(a, 'pr-one');
    let code = totpCode(seed, clock.now());
    const same = await Promise.all([totpLogin(a, one, code), totpLogin(b, one, code)]);
    expect(same.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect(await live()).toHaveLength(before + 1);

    clock.advance(30);
    const [first, second] = [await challenge(a, 'pr-one'), await challenge(b, 'pr-one')];
    code = totpCode(seed, clock.now());
    const two = await Promise.all([totpLogin(a, first, code), totpLogin(b, second, code)]);
    expect(two.map((r) => r.body.code).sort()).toEqual([0, 40019]);
    expect(await live()).toHaveLength(before + 2);
  });

  it('uses one recovery code once when it reaches both instances at once', async () => {
    const { recoveryCodes } = await boundUser('pr-recover');
    const recover = (t: TestServer) =>
      post(t, '/api/v1/auth/mfa/recovery', {
        account: 'pr-recover',
        currentPassword: TEST_USER_PASSWORD,
        recoveryCode: recoveryCodes[0],
      });
    const answers = await Promise.all([recover(a), recover(b)]);
    expect(answers.map((r) => r.body.code).sort()).toEqual([0, 40022]);
  });

  it('refuses at re-authentication on one instance a code spent at login on the other', async () => {
    const { seed } = await boundUser('pr-reauth');
    const code = totpCode(seed, clock.now());
    const token = (await totpLogin(a, await challenge(a, 'pr-reauth'), code)).body.data.accessToken as string;
    const reauth = (t: TestServer, totp: string) =>
      post(t, '/api/v1/auth/reauth', { method: 'totp', totpCode: totp }, bearer(token));
    expect((await reauth(b, code)).body.code).toBe(40019);
    clock.advance(30);
    const next = totpCode(seed, clock.now());
    const answers = await Promise.all([reauth(a, next), reauth(b, next)]);
    expect(answers.map((r) => r.body.code).sort()).toEqual([0, 40019]);
  });

  it("ends a TOTP step opening its session on one instance while the other clears the user's authenticator", async () => {
    const { userId, seed } = await boundUser('pr-clear');
    const admin = bearer((await login(b, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    expect(
      (await post(b, '/api/v1/auth/reauth', { method: 'password', password: TEST_ADMIN_PASSWORD }, admin))
        .body.code,
    ).toBe(0);
    const step = await challenge(a, 'pr-clear');
    const sessions = a.server.database.repos.sessions;
    const insert = sessions.insert.bind(sessions);
    const spy = vi.spyOn(sessions, 'insert').mockImplementationOnce(async (row) => {
      expect((await post(b, '/api/v1/sys/mfa/clear', { userId }, admin)).body.code).toBe(0);
      return insert(row);
    });
    try {
      const racing = await totpLogin(a, step, totpCode(seed, clock.now()));
      expect(spy).toHaveBeenCalledTimes(1);
      expect(racing.body).toMatchObject({ code: 40028, data: null });
    } finally {
      spy.mockRestore();
    }
    expect(await sessions.listLive(userId)).toEqual([]);
  });

  describe('SMS steps whose number changes on the other instance', () => {
    let admin: Record<string, string>;
    /** The administrator's edit of a user's number on instance b (re-authenticating first). */
    async function setPhone(userId: number, phone: string | null) {
      const reauth = await post(
        b,
        '/api/v1/auth/reauth',
        { method: 'password', password: TEST_ADMIN_PASSWORD },
        admin,
      );
      expect(reauth.body.code).toBe(0);
      const res = await b.request(`/api/v1/sys/user/${userId}`, {
        method: 'PUT',
        json: { phone },
        headers: admin,
      });
      expect((await json(res)).code).toBe(0);
    }
    /** Runs `during` once, just before instance a writes its next session row. */
    function whileTheSessionOpens(during: () => Promise<void>) {
      const sessions = a.server.database.repos.sessions;
      const insert = sessions.insert.bind(sessions);
      return vi.spyOn(sessions, 'insert').mockImplementationOnce(async (row) => {
        await during();
        return insert(row);
      });
    }

    beforeAll(async () => {
      expect(await a.server.database.repos.configs.updateValue('sys.security.mfa.enabled', 'true')).toBe(
        true,
      );
      for (const t of [a, b]) await t.server.configStore.invalidate('sys.security.mfa.enabled');
      admin = bearer((await login(b, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(async () => {
      expect(await a.server.database.repos.configs.updateValue('sys.security.mfa.enabled', 'false')).toBe(
        true,
      );
      for (const t of [a, b]) await t.server.configStore.invalidate('sys.security.mfa.enabled');
    });

    it('ends an SMS step opening its session on one instance while the other changes the number', async () => {
      const number = '13600000001';
      const userId = await addUser(a, { account: 'pr-sms', phone: number });
      const step = await post(a, '/api/v1/auth/login', { account: 'pr-sms', password: TEST_USER_PASSWORD });
      expect(step.body.code).toBe(40009);
      const spy = whileTheSessionOpens(() => setPhone(userId, '13600000002'));
      try {
        const racing = await post(a, '/api/v1/auth/login/sms', {
          challengeId: step.body.args.challengeId,
          code: lastSmsCode(a, 'mfa', number),
        });
        expect(spy).toHaveBeenCalledTimes(1);
        expect(racing.body).toMatchObject({ code: 40011, data: null });
      } finally {
        spy.mockRestore();
      }
      expect(await a.server.database.repos.sessions.listLive(userId)).toEqual([]);
    });

    it('sends no resend to the old number from either instance once the other changed it', async () => {
      const number = '13600000003';
      const userId = await addUser(a, { account: 'pr-sms-resend', phone: number });
      const step = await post(a, '/api/v1/auth/login', {
        account: 'pr-sms-resend',
        password: TEST_USER_PASSWORD,
      });
      expect(step.body.code).toBe(40009);
      clock.advance(61);
      await setPhone(userId, null);
      const answers = await Promise.all(
        [a, b].map((t) =>
          post(t, '/api/v1/auth/login/sms/resend', { challengeId: step.body.args.challengeId }),
        ),
      );
      expect(answers.map((r) => r.body.code)).toEqual([40011, 40011]);
      expect([...smsLines(a, 'mfa', number), ...smsLines(b, 'mfa', number)]).toHaveLength(1);
    });

    it('ends an SMS login opening its session on one instance while the other moves the number', async () => {
      const number = '13600000004';
      const userId = await addUser(a, { account: 'pr-sms-login', phone: number });
      const other = await addUser(a, { account: 'pr-sms-login-other' });
      expect((await post(b, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
      const spy = whileTheSessionOpens(async () => {
        await setPhone(userId, null);
        await setPhone(other, number);
      });
      try {
        const racing = await post(a, '/api/v1/auth/sms/login', {
          phone: number,
          code: lastSmsCode(b, 'login', number),
        });
        expect(spy).toHaveBeenCalledTimes(1);
        expect(racing.body).toMatchObject({ code: 40011, data: null });
      } finally {
        spy.mockRestore();
      }
      expect(await a.server.database.repos.sessions.listLive(userId)).toEqual([]);
      expect(await a.server.database.repos.sessions.listLive(other)).toEqual([]);
    });
  });
});
