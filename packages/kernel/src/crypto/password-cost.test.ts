/**
 * Equal cost of password verification, proven by counting PBKDF2 iterations through an injected primitive
 * (never by timing): every outcome costs one hash of the current strength, whatever the stored hash holds.
 */
import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPasswordHasher, type Pbkdf2Derive } from './password.js';

const CURRENT = 200_000;

/** A real PBKDF2 (so verification still works) that adds up the iterations it was asked for. */
function countingDerive(): { derive: Pbkdf2Derive; iterations: () => number; reset(): void } {
  let total = 0;
  return {
    derive: async (password, salt, iterations, keyLength) => {
      total += iterations;
      // Cheap stand-in of the same shape: the count is what the test measures, not the work.
      return pbkdf2Sync(password, salt, 1, keyLength, 'sha256');
    },
    iterations: () => total,
    reset() {
      total = 0;
    },
  };
}

describe('password verification cost', () => {
  it('costs the current strength for a current, an older, a malformed and an unknown account, right or wrong', async () => {
    const counter = countingDerive();
    const current = createPasswordHasher({ iterations: CURRENT, derive: counter.derive });
    const older = createPasswordHasher({ iterations: 100_000, derive: counter.derive });
    const currentHash = await current.hash('Right#Pass1');
    const olderHash = await older.hash('Right#Pass1');

    const costs: Record<string, number> = {};
    const measure = async (name: string, run: () => Promise<boolean>, expected: boolean) => {
      counter.reset();
      expect(await run()).toBe(expected);
      costs[name] = counter.iterations();
    };
    await measure('current, wrong', () => current.verify('Wrong#Pass1', currentHash), false);
    await measure('current, right', () => current.verify('Right#Pass1', currentHash), true);
    await measure('older, wrong', () => current.verify('Wrong#Pass1', olderHash), false);
    await measure('older, right', () => current.verify('Right#Pass1', olderHash), true);
    await measure('malformed', () => current.verify('Right#Pass1', 'pbkdf2-sha256$x$$'), false);
    await measure('empty', () => current.verify('Right#Pass1', ''), false);
    await measure('unknown', () => current.verifyNothing('Right#Pass1'), false);

    expect(Object.values(costs)).toHaveLength(7);
    for (const [name, cost] of Object.entries(costs)) expect({ name, cost }).toEqual({ name, cost: CURRENT });
  });

  it('marks the older hash for a rehash and the current one not', async () => {
    const hasher = createPasswordHasher({ iterations: CURRENT });
    expect(hasher.needsRehash(await createPasswordHasher({ iterations: 100_000 }).hash('x'))).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('x'))).toBe(false);
  });
});
