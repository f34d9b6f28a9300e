/** The hub's per-socket message bound as a rule alone; realtime.sqlite.int.test.ts drives it through real sockets. */
import { describe, expect, it } from 'vitest';
import { fullBucket, isRefilled, takeMessage } from './message-bucket.js';

describe('hub message bucket', () => {
  const rate = { burst: 3, perSecond: 2 };
  const takes = (bucket: ReturnType<typeof fullBucket>, now: number, n: number) =>
    Array.from({ length: n }, () => takeMessage(bucket, rate, now));

  it('lets a burst through at once, then one frame per refill interval', () => {
    const bucket = fullBucket(rate, 1000);
    expect(takes(bucket, 1000, 4)).toEqual([true, true, true, false]);
    // Half a second at 2 a second: one more frame, not two.
    expect(takes(bucket, 1500, 2)).toEqual([true, false]);
    expect(takes(bucket, 1749, 1)).toEqual([false]);
    expect(takes(bucket, 2000, 1)).toEqual([true]);
  });

  it('refills no further than the burst however long the socket was quiet', () => {
    const bucket = fullBucket(rate, 0);
    expect(takes(bucket, 3_600_000, 4)).toEqual([true, true, true, false]);
  });

  it('refills nothing when the clock moves back, and not twice for the same span', () => {
    const bucket = fullBucket(rate, 10_000);
    takes(bucket, 10_000, 3);
    expect(takes(bucket, 5_000, 1)).toEqual([false]);
    expect(takes(bucket, 10_500, 2)).toEqual([true, false]);
  });

  it('reads a bucket as refilled only once its burst is back, never from a clock moved back', () => {
    const bucket = fullBucket(rate, 1000);
    expect(isRefilled(bucket, rate, 1000)).toBe(true);
    takes(bucket, 1000, 2);
    // One frame short of the burst: two taken, one back after half a second, the other after a second.
    expect(isRefilled(bucket, rate, 1000)).toBe(false);
    expect(isRefilled(bucket, rate, 1500)).toBe(false);
    expect(isRefilled(bucket, rate, 2000)).toBe(true);
    expect(isRefilled(bucket, rate, 500)).toBe(false);
  });
});
