import { describe, expect, it } from 'vitest';
import { satisfiesRange } from './version-range.js';

describe('satisfiesRange', () => {
  it.each([
    ['12.11.1', '^12.11.1', true],
    ['12.99.0', '^12.11.1', true],
    ['12.10.0', '^12.11.1', false],
    ['13.2.0', '^12.11.1', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['20.20.2', '>=22', false],
    ['22.0.0', '>=22', true],
    ['20.20.2', '20.x || 22.x || 23.x || 24.x || 25.x || 26.x', true],
    ['21.7.0', '20.x || 22.x || 23.x', false],
    ['20.19.0', '>=20.19.0 <21 || >=22.12.0', true],
    ['21.0.0', '>=20.19.0 <21 || >=22.12.0', false],
    ['22.11.0', '>=20.19.0 <21 || >=22.12.0', false],
    ['20.20.2', '>= 8.0', true],
    ['18.19.0', '>=18.19.0', true],
    ['18.18.2', '>=18.19.0', false],
    ['2.5.0', '1.2.3 - 2.5', true],
    ['2.6.0', '1.2.3 - 2.5', false],
    ['5.0.0', '<=4', false],
    ['4.9.9', '<=4', true],
    ['3.0.0', '>2', true],
    ['2.9.0', '>2', false],
    ['13.0.0-rc.1', '^12', false],
    ['7.7.7', '*', true],
    ['7.7.7', '', true],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });

  it('answers undefined when the range or the version cannot be read', () => {
    expect(satisfiesRange('20.1.0', 'latest')).toBeUndefined();
    expect(satisfiesRange('not-a-version', '>=1')).toBeUndefined();
    // One readable alternative that matches is enough.
    expect(satisfiesRange('20.1.0', 'latest || >=20')).toBe(true);
  });
});
