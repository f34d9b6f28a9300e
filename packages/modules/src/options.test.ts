/**
 * The options the built-in modules declare (`Service:Jobs`, `Service:Upload`, `Service:Realtime`, …), read from the
 * configuration as the composition root reads them: their section taken out of the kernel's, parsed with the
 * module's declaration in the forms every key takes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Infer, loadConfiguration, parseSection, type Section } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { jobsOptions } from './job/options.js';
import { realtimeOptions } from './realtime/options.js';
import { uploadOptions } from './upload/options.js';

const root = mkdtempSync(join(tmpdir(), 'svc-module-options-'));

/** The module's options with these environment variables (`OptionsError` naming a bad key). */
function parsed<S extends Section>(declared: S, section: string, env: Record<string, string>): Infer<S> {
  const config = loadConfiguration({ contentRoot: root, env, moduleSections: [section] });
  expect(config.warnings, "the section is the module's, not an unknown kernel key").toEqual([]);
  return parseSection(declared, config.section(section), `Service:${section}`).value;
}

describe('the options of the built-in modules', () => {
  it('caps the live runs of a parallel job at Service:Jobs:MaxParallelRuns: 8 by default, 1 to 1000', () => {
    const maxParallel = (env: Record<string, string>) => parsed(jobsOptions, 'Jobs', env).MaxParallelRuns;
    expect(maxParallel({})).toBe(8);
    expect(maxParallel({ Service__Jobs__MaxParallelRuns: '1' })).toBe(1);
    expect(maxParallel({ Service__Jobs__MaxParallelRuns: '1000' })).toBe(1000);
    // No cap at all (0) or a negative one would bring back the unbounded runs the option is there to stop.
    for (const bad of ['0', '-1', '1001', 'unlimited', '2.5'])
      expect(() => maxParallel({ Service__Jobs__MaxParallelRuns: bad }), bad).toThrow(
        'Service:Jobs:MaxParallelRuns: expected integer 1..1000',
      );
  });

  it('bounds the open chunked uploads of a user at Service:Upload:ChunkMaxOpenPerUser: 16 by default, 1 to 1000', () => {
    const maxOpen = (env: Record<string, string>) => parsed(uploadOptions, 'Upload', env).ChunkMaxOpenPerUser;
    expect(maxOpen({})).toBe(16);
    expect(maxOpen({ Service__Upload__ChunkMaxOpenPerUser: '1' })).toBe(1);
    expect(maxOpen({ Service__Upload__ChunkMaxOpenPerUser: '1000' })).toBe(1000);
    // No bound (0) or a negative one would let a user stage unbounded bytes again; refused at start-up.
    for (const bad of ['0', '-1', '1001', 'unlimited', '2.5'])
      expect(() => maxOpen({ Service__Upload__ChunkMaxOpenPerUser: bad }), bad).toThrow(
        'Service:Upload:ChunkMaxOpenPerUser: expected integer 1..1000',
      );
  });

  it('bounds what one hub socket sends at Service:Realtime:MessageBurst (60) and MessagesPerSecond (10)', () => {
    const realtime = (env: Record<string, string>) => parsed(realtimeOptions, 'Realtime', env);
    expect(realtime({})).toMatchObject({ MessageBurst: 60, MessagesPerSecond: 10 });
    expect(
      realtime({ Service__Realtime__MessageBurst: '1', Service__Realtime__MessagesPerSecond: '10000' }),
    ).toMatchObject({ MessageBurst: 1, MessagesPerSecond: 10_000 });
    // No bound (0), a negative one or a fraction is refused at start-up, naming the key and its range.
    for (const bad of ['0', '-1', '1000001', 'unlimited', '2.5'])
      expect(() => realtime({ Service__Realtime__MessageBurst: bad }), bad).toThrow(
        'Service:Realtime:MessageBurst: expected integer 1..1000000',
      );
    for (const bad of ['0', '-1', '10001', 'unlimited', '0.5'])
      expect(() => realtime({ Service__Realtime__MessagesPerSecond: bad }), bad).toThrow(
        'Service:Realtime:MessagesPerSecond: expected integer 1..10000',
      );
  });
});
