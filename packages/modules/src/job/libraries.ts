/**
 * The libraries of module `Job`: bullmq and ioredis, optional peers of @svc/modules needed only by the BullMQ engine
 * (`Service:Jobs:Engine` BullMQ, or Auto with `Service:Cache:Provider` Redis). The in-process engine and a host
 * with `Job` in `Service:Api:DisabledModules` need neither installed.
 */
import type { PeerNeed } from '@svc/data';
import type { ServiceOptions } from '@svc/kernel';
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobsOptions } from './options.js';

/** The versions supported: the peer ranges of @svc/modules' package.json (packaging.test.ts keeps them equal). */
export const JOB_LIBRARIES = {
  bullmq: { package: 'bullmq', range: '^6.7.0' },
  ioredis: { package: 'ioredis', range: '^5.9.2' },
} as const;

/**
 * The setting that puts the job engine on BullMQ, or null for the in-process engine.
 * @example bullMqSelection(options, config.service.Cache) // 'Service:Jobs:Engine selects BullMQ'
 */
export function bullMqSelection(
  options: Pick<JobsOptions, 'Engine'>,
  cache: ServiceOptions['Cache'],
): string | null {
  if (options.Engine === 'BullMQ') return 'Service:Jobs:Engine selects BullMQ';
  if (options.Engine === 'Auto' && cache.Provider === 'Redis' && cache.Redis.Configuration !== null)
    return 'Service:Jobs:Engine Auto with Service:Cache:Provider Redis selects BullMQ';
  return null;
}

/** What the BullMQ engine loads, as `selectedBy` says it was chosen. */
export function jobLibraryNeeds(selectedBy: string): PeerNeed[] {
  return Object.values(JOB_LIBRARIES).map((peer) => ({
    ...peer,
    selectedBy: `${selectedBy} for module Job`,
    owner: '@svc/modules',
  }));
}

/** Imports BullMQ and ioredis (only the engine's start and start-up's check call it). */
export const loadJobLibraries = (): Promise<
  [{ Queue: typeof Queue; Worker: typeof Worker }, { Redis: typeof Redis }]
> => Promise.all([import('bullmq'), import('ioredis')]);
