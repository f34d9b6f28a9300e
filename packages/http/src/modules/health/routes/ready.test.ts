/**
 * The readiness decision without HTTP: each check is bounded by its own limit (the database's is the acquire
 * timeout, contract §11), not by one fixed limit for all; the clock is vitest's, moved by the test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkReadiness, READINESS_TIMEOUT_MS } from './ready.js';

/** A check that answers only when the test says so. */
function held() {
  let answer!: (value?: unknown) => void;
  const promise = new Promise<unknown>((resolve) => {
    answer = resolve;
  });
  return { promise, answer };
}

describe('checkReadiness', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives up on a check at its own limit, shorter or longer than the default, and names it', async () => {
    const quick = held();
    const slow = held();
    let settled: Awaited<ReturnType<typeof checkReadiness>> | undefined;
    void checkReadiness([
      { name: 'database', check: () => quick.promise, timeoutMs: 1_000 },
      { name: 'cache', check: async () => undefined },
    ]).then((r) => {
      settled = r;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled?.state).toBe('Unhealthy');
    expect(settled?.state === 'Unhealthy' && settled.failed.map((f) => f.name)).toEqual(['database']);

    // A limit above the default: a check still within it is waited for, past the default's 3 s.
    let later: Awaited<ReturnType<typeof checkReadiness>> | undefined;
    void checkReadiness([{ name: 'database', check: () => slow.promise, timeoutMs: 10_000 }]).then((r) => {
      later = r;
    });
    await vi.advanceTimersByTimeAsync(READINESS_TIMEOUT_MS + 1_000);
    expect(later).toBeUndefined();
    slow.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(later).toEqual({ state: 'Healthy' });
  });

  it('bounds a check without a limit by the default, and reports Degraded when one says so', async () => {
    let settled: Awaited<ReturnType<typeof checkReadiness>> | undefined;
    void checkReadiness([{ name: 'cache', check: () => held().promise }]).then((r) => {
      settled = r;
    });
    await vi.advanceTimersByTimeAsync(READINESS_TIMEOUT_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled?.state).toBe('Unhealthy');

    expect(
      await checkReadiness([
        { name: 'database', check: async () => undefined },
        { name: 'cache', check: async () => 'Degraded' },
      ]),
    ).toEqual({ state: 'Degraded' });
  });
});
