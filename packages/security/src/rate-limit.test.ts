import { createMemoryCache } from '@svc/data/cache';
import { describe, expect, it } from 'vitest';
import {
  apiKeyBucket,
  createRateLimiter,
  hitNowOf,
  ipBucket,
  isAuthPath,
  type RateLimitSettings,
  rateLimitTarget,
} from './rate-limit.js';

function setup() {
  const clock = { at: Date.UTC(2030, 0, 1) };
  const cache = createMemoryCache({ now: () => clock.at });
  return { clock, cache, limiter: createRateLimiter({ cache }) };
}

const RULE = { permit: 3, windowSeconds: 60 };

describe('rate limiter', () => {
  it('allows permit requests per window and refuses the rest with Retry-After', async () => {
    const { limiter, clock } = setup();
    const allowed = { allowed: true, retryAfterSeconds: 0, firstRefusal: false };
    expect(await limiter.hit('ip:1', RULE)).toEqual({ ...allowed, remaining: 2 });
    await limiter.hit('ip:1', RULE);
    expect(await limiter.hit('ip:1', RULE)).toEqual({ ...allowed, remaining: 0 });
    clock.at += 15_500;
    expect(await limiter.hit('ip:1', RULE)).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 45,
      firstRefusal: true,
    });
    expect((await limiter.hit('ip:2', RULE)).allowed).toBe(true);
  });

  it('decides now on a cache that counts without I/O, sharing the counters and decisions of hit', async () => {
    const { limiter, clock } = setup();
    const hitNow = limiter.hitNow;
    if (!hitNow) throw new Error('the memory cache counts without I/O');
    const allowed = { allowed: true, retryAfterSeconds: 0, firstRefusal: false };
    expect(hitNow('ip:1', RULE)).toEqual({ ...allowed, remaining: 2 });
    expect(await limiter.hit('ip:1', RULE)).toEqual({ ...allowed, remaining: 1 });
    expect(hitNow('ip:1', RULE)).toEqual({ ...allowed, remaining: 0 });
    clock.at += 20_000;
    expect(hitNow('ip:1', RULE)).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 40,
      firstRefusal: true,
    });
    expect(await limiter.hit('ip:1', RULE)).toMatchObject({ allowed: false, firstRefusal: false });
    expect(limiter.stats().refused).toBe(2);
    // The window the first request opened ends for both forms.
    clock.at += 40_000;
    expect(hitNow('ip:1', RULE)).toEqual({ ...allowed, remaining: 2 });
    expect(() => hitNow('ip:1', { permit: 0, windowSeconds: 60 })).toThrow(RangeError);
  });

  it("offers no decision now once the limiter's hit is replaced (the replacement decides every request)", () => {
    const { limiter } = setup();
    expect(hitNowOf(limiter)).toBe(limiter.hitNow);
    const replaced = {
      ...limiter,
      hit: async () => ({ allowed: false, remaining: 0, retryAfterSeconds: 1, firstRefusal: true }),
    };
    expect(replaced.hitNow).toBeDefined();
    expect(hitNowOf(replaced)).toBeUndefined();
  });

  it('has no decision now on a cache that needs I/O to count', () => {
    const { cache } = setup();
    const remote = { ...cache, syncCounters: undefined };
    expect(createRateLimiter({ cache: remote }).hitNow).toBeUndefined();
  });

  it('lets exactly permit requests through under concurrency', async () => {
    const { limiter } = setup();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => limiter.hit('ip:1', { permit: 20, windowSeconds: 60 })),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
  });

  it('counts every refusal and marks exactly one per bucket and window as the first, under concurrency', async () => {
    const { limiter, clock } = setup();
    const burst = () =>
      Promise.all(Array.from({ length: 30 }, () => limiter.hit('ip:1', { permit: 10, windowSeconds: 60 })));
    const first = await burst();
    expect(first.filter((r) => r.firstRefusal)).toHaveLength(1);
    expect(first.filter((r) => !r.allowed)).toHaveLength(20);
    expect(limiter.stats()).toEqual({ refused: 20 });
    // Another client has a first refusal of its own; the next window starts over.
    await Promise.all(
      Array.from({ length: 12 }, () => limiter.hit('ip:2', { permit: 10, windowSeconds: 60 })),
    );
    clock.at += 60_000;
    const second = await burst();
    expect(second.filter((r) => r.firstRefusal)).toHaveLength(1);
    expect(limiter.stats()).toEqual({ refused: 42 });
  });

  it('keeps the window fixed: refused requests do not extend it, and it resets on time', async () => {
    const { limiter, clock } = setup();
    const start = clock.at;
    for (let i = 0; i < 3; i++) await limiter.hit('ip:1', RULE);
    clock.at = start + 59_000;
    expect(await limiter.hit('ip:1', RULE)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.at = start + 60_000;
    expect(await limiter.hit('ip:1', RULE)).toMatchObject({
      allowed: true,
      remaining: 2,
      retryAfterSeconds: 0,
    });
  });

  it('answers Retry-After of at least 1 second', async () => {
    const { limiter, clock } = setup();
    const start = clock.at;
    for (let i = 0; i < 3; i++) await limiter.hit('ip:1', RULE);
    clock.at = start + 59_999;
    expect((await limiter.hit('ip:1', RULE)).retryAfterSeconds).toBe(1);
  });

  it('gives a counter that had no expiry a window, so the bucket is not refused for ever', async () => {
    const { limiter, cache, clock } = setup();
    await cache.increment('sec:rl:ip:1', { by: 10 });
    expect(await limiter.hit('ip:1', RULE)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    clock.at += 60_000;
    expect((await limiter.hit('ip:1', RULE)).allowed).toBe(true);
  });

  it('refuses nonsense rules', async () => {
    const { limiter } = setup();
    await expect(limiter.hit('x', { permit: 0, windowSeconds: 60 })).rejects.toThrow(RangeError);
    await expect(limiter.hit('x', { permit: 1, windowSeconds: 0 })).rejects.toThrow(RangeError);
  });
});

describe('buckets', () => {
  it('separates the auth bucket from the general one', () => {
    expect(ipBucket('1.2.3.4', true)).not.toBe(ipBucket('1.2.3.4', false));
    expect(ipBucket('::ffff:1.2.3.4', false)).toBe(ipBucket('1.2.3.4', false));
  });

  it('partitions API keys by a hash and never holds the key', () => {
    const key = 'k'.repeat(40);
    expect(apiKeyBucket(key)).not.toContain(key);
    expect(apiKeyBucket(key)).toBe(apiKeyBucket(key));
    expect(apiKeyBucket(key)).not.toBe(apiKeyBucket(`${key}x`));
  });

  it('recognises auth paths however they are spelled', () => {
    for (const p of [
      '/api/v1/auth/login',
      '/API/V1/Auth/refresh',
      '/api/v1/%61uth/login',
      '/api/v1//auth/x',
      // The signed-in doors that take a password share the stricter bucket.
      '/api/v1/personal/password',
      '/API/v1/Personal/Phone/',
      '/api/v1/personal/%70hone/code',
    ]) {
      expect(isAuthPath(p)).toBe(true);
    }
    for (const p of [
      '/api/v1/authx',
      '/api/v1/ping',
      '/auth/login',
      '/api/v1/sys/%ZZ',
      '/api/v1/personal/profile',
    ]) {
      expect(isAuthPath(p)).toBe(false);
    }
  });

  const settings: RateLimitSettings = {
    enabled: true,
    windowSeconds: 60,
    permitPerWindow: 300,
    authPermitPerWindow: 20,
    keyPermitPerWindow: 600,
  };

  it('picks the key bucket for an accepted key, the auth or general IP bucket otherwise', () => {
    const base = { clientIp: '1.2.3.4', settings };
    expect(rateLimitTarget({ ...base, path: '/api/v1/ping' })).toEqual({
      bucket: ipBucket('1.2.3.4', false),
      rule: { permit: 300, windowSeconds: 60 },
    });
    expect(rateLimitTarget({ ...base, path: '/api/v1/auth/login' })?.rule.permit).toBe(20);
    expect(rateLimitTarget({ ...base, path: '/api/v1/ping', apiKey: 'secret' })).toEqual({
      bucket: apiKeyBucket('secret'),
      rule: { permit: 600, windowSeconds: 60 },
    });
  });

  it('counts an auth path against the IP auth bucket also with a valid key, whatever the key permit', () => {
    // A key holder spraying passwords: the key's bucket (600, or none at all) must not replace the IP's 20.
    const authBucket = { bucket: ipBucket('1.2.3.4', true), rule: { permit: 20, windowSeconds: 60 } };
    for (const keyPermitPerWindow of [600, 0]) {
      const keyed = { clientIp: '1.2.3.4', apiKey: 'secret', settings: { ...settings, keyPermitPerWindow } };
      expect(rateLimitTarget({ ...keyed, path: '/api/v1/auth/login' })).toEqual(authBucket);
      expect(rateLimitTarget({ ...keyed, path: '/api/v1/%61uth/sms/login' })).toEqual(authBucket);
    }
  });

  it('answers null when limiting is off or the key permit is unlimited', () => {
    expect(
      rateLimitTarget({ clientIp: '1.2.3.4', path: '/', settings: { ...settings, enabled: false } }),
    ).toBeNull();
    const unlimited = { ...settings, keyPermitPerWindow: 0 };
    expect(rateLimitTarget({ clientIp: '1.2.3.4', path: '/', apiKey: 'k', settings: unlimited })).toBeNull();
  });
});
