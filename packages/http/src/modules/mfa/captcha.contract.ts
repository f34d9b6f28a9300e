/**
 * Image captcha over HTTP (spec "Image captcha"): the three types from the runtime key, tickets cached two
 * minutes and consumed by the first guess, 40002/40003, case-insensitive answers, no lock failure for a wrong
 * captcha, and the same protection on `POST /auth/sms/send`.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../testing/auth.js';
import { setRuntimeConfig, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/index.js';
import { post, startMfaServer, testClock } from './helpers.contract.js';

const ADMIN = 'superAdmin';

export function defineCaptchaContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`image captcha on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;
    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock, { Service__Security__LoginLock__MaxFailCount: '3' });
    });
    afterAll(() => t?.close());

    const issue = async () => {
      const body = await json(await t.request('/api/v1/auth/captcha'));
      expect(body.code).toBe(0);
      return body.data as { captchaId: string; svg: string; type: string };
    };
    /** The cached answer: what a human reads off the image. */
    const answerOf = async (captchaId: string) =>
      (await t.server.cache.get<{ answer: string }>(`mfa:captcha:${captchaId}`))?.answer ?? '';
    const login = (extra: Record<string, unknown>, password = TEST_ADMIN_PASSWORD) =>
      post(t, '/api/v1/auth/login', { account: ADMIN, password, ...extra });

    it('draws each type from the runtime key at once, as an SVG whose markup holds no answer', async () => {
      for (const type of ['char', 'path', 'math'] as const) {
        await setRuntimeConfig(t, 'sys.security.captcha.type', type);
        const captcha = await issue();
        expect(captcha.type).toBe(type);
        expect(captcha.captchaId).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
        expect(captcha.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
        expect(captcha.svg).toMatch(/viewBox="0 0 \d+ \d+"/);
        expect(captcha.svg).not.toMatch(/<text|<title|<desc|<script|font-family/i);
        expect((captcha.svg.match(/<path /g) ?? []).length).toBeGreaterThan(6);
        const answer = await answerOf(captcha.captchaId);
        if (type === 'math') expect(answer).toMatch(/^\d+$/);
        else expect(captcha.svg.toUpperCase()).not.toContain(answer);
      }
      await setRuntimeConfig(t, 'sys.security.captcha.type', 'char');
    });

    it('is checked at login only while the runtime switch is on', async () => {
      expect((await login({})).body.code).toBe(0);
      await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'true');
      try {
        expect((await login({})).body.code).toBe(40002);
        const captcha = await issue();
        const answer = await answerOf(captcha.captchaId);
        const ok = await login({ captchaId: captcha.captchaId, captchaCode: answer.toLowerCase() });
        expect(ok.body.code).toBe(0);
        // Consumed by that login: the same ticket again is dead.
        expect((await login({ captchaId: captcha.captchaId, captchaCode: answer })).body.code).toBe(40002);
      } finally {
        await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'false');
      }
      expect((await login({})).body.code).toBe(0);
    });

    it('answers 40003 for a wrong answer, consumes the ticket anyway, and never counts a lock failure', async () => {
      await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'true');
      try {
        for (let i = 0; i < 4; i++) {
          const captcha = await issue();
          const wrong = await login({ captchaId: captcha.captchaId, captchaCode: 'zzzz' }, 'wrong-password');
          expect(wrong.body.code).toBe(40003);
          const again = await login({
            captchaId: captcha.captchaId,
            captchaCode: await answerOf(captcha.captchaId),
          });
          expect(again.body.code).toBe(40002);
        }
        // Four wrong captchas with a wrong password and MaxFailCount 3: still not locked.
        const captcha = await issue();
        const ok = await login({
          captchaId: captcha.captchaId,
          captchaCode: await answerOf(captcha.captchaId),
        });
        expect(ok.body.code).toBe(0);
      } finally {
        await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'false');
      }
    });

    it('expires after two minutes on the service clock', async () => {
      await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'true');
      try {
        const early = await issue();
        clock.advance(119);
        expect(
          (await login({ captchaId: early.captchaId, captchaCode: await answerOf(early.captchaId) })).body
            .code,
        ).toBe(0);
        const late = await issue();
        const answer = await answerOf(late.captchaId);
        clock.advance(121);
        expect((await login({ captchaId: late.captchaId, captchaCode: answer })).body.code).toBe(40002);
        expect((await login({ captchaId: 'not-a-ticket', captchaCode: answer })).body.code).toBe(40002);
      } finally {
        await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'false');
      }
    });

    it('protects SMS send while enabled', async () => {
      await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'true');
      await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'true');
      try {
        expect((await post(t, '/api/v1/auth/sms/send', { phone: '13700000001' })).body.code).toBe(40002);
        const captcha = await issue();
        const wrong = await post(t, '/api/v1/auth/sms/send', {
          phone: '13700000001',
          captchaId: captcha.captchaId,
          captchaCode: 'zzzz',
        });
        expect(wrong.body.code).toBe(40003);
        const fresh = await issue();
        const sent = await post(t, '/api/v1/auth/sms/send', {
          phone: '13700000001',
          captchaId: fresh.captchaId,
          captchaCode: await answerOf(fresh.captchaId),
        });
        expect(sent.body).toMatchObject({ code: 0, data: { expiresSeconds: 300, resendSeconds: 60 } });
      } finally {
        await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'false');
        await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'false');
      }
    });
  });
}
