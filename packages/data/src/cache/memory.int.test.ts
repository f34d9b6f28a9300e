/** Runs the cache contract on the in-process provider, with an injected clock instead of sleeps. */
import { defineCacheContract } from './cache.contract.js';
import { createMemoryCache } from './memory.js';

defineCacheContract('memory', async () => {
  let clock = Date.parse('2025-06-01T00:00:00Z');
  const reportedErrors: unknown[] = [];
  const cache = createMemoryCache({ now: () => clock, onError: (error) => reportedErrors.push(error) });
  return {
    cache,
    peer: cache,
    reportedErrors,
    elapse: async (ms) => {
      clock += ms;
    },
    dispose: () => cache.close(),
  };
});
