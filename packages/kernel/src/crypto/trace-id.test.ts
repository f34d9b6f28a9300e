import { describe, expect, it } from 'vitest';
import { traceIdAt } from './trace-id.js';

describe('traceIdAt', () => {
  it('answers 32 lower-case hex characters whose first 12 are the milliseconds', () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 123);
    const id = traceIdAt(at);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(Number.parseInt(id.slice(0, 12), 16)).toBe(at);
  });

  it('orders ids by time, so indexes take them at their right edge', () => {
    const start = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 2000 }, (_, i) => traceIdAt(start + Math.floor(i / 10)));
    const byTime = ids.map((id) => id.slice(0, 12));
    expect(byTime).toEqual([...byTime].sort());
    expect(new Set(byTime).size).toBe(200);
  });

  it('never repeats, across several refills of the random pool and within one millisecond', () => {
    const now = Date.now();
    const ids = Array.from({ length: 5000 }, () => traceIdAt(now));
    expect(new Set(ids).size).toBe(ids.length);
    const randomParts = new Set(ids.map((id) => id.slice(12)));
    expect(randomParts.size).toBe(ids.length);
  });
});
