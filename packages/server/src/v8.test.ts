import { describe, expect, it } from 'vitest';
import { applyServingV8Flags, SERVING_V8_FLAGS } from './v8.js';

describe('applyServingV8Flags', () => {
  it('sets --no-allocation-site-pretenuring when the process made no choice', () => {
    const set: string[] = [];
    expect(applyServingV8Flags(['--enable-source-maps'], (flag) => set.push(flag))).toEqual([
      '--no-allocation-site-pretenuring',
    ]);
    expect(set).toEqual([...SERVING_V8_FLAGS]);
  });

  it('keeps a choice the process was started with, in either direction and either spelling', () => {
    for (const argv of [
      ['--allocation-site-pretenuring'],
      ['--no-allocation-site-pretenuring'],
      ['--allocation_site_pretenuring'],
      ['--noallocation-site-pretenuring'],
      ['-allocation-site-pretenuring'],
      ['-no-allocation-site-pretenuring'],
    ]) {
      const set: string[] = [];
      expect(
        applyServingV8Flags(argv, (flag) => set.push(flag)),
        argv[0],
      ).toEqual([]);
      expect(set).toEqual([]);
    }
  });

  it('is not fooled by a flag that only starts with the same words', () => {
    const set: string[] = [];
    applyServingV8Flags(['--allocation-site-pretenuring-extra'], (flag) => set.push(flag));
    expect(set).toEqual(['--no-allocation-site-pretenuring']);
  });
});
