/** Config centre helpers: tabs by key prefix, and only the changed values go into a batch save. */
import { describe, expect, it } from 'vitest';
import { type ConfigRow, changedEntries, configGroupOf, groupConfigs, knobMessageKey } from './config.js';

const row = (key: string, value = ''): ConfigRow => ({
  id: key.length,
  key,
  value,
  valueType: 'string',
  values: null,
  min: null,
  max: null,
  name: key,
  builtIn: false,
  remark: null,
  createTime: '2026-01-01T00:00:00Z',
  updateTime: null,
});

describe('config centre helpers', () => {
  it('groups runtime keys by their area and other keys by their first segment', () => {
    expect(configGroupOf('sys.security.password.minLength')).toBe('security');
    expect(configGroupOf('sys.site.title')).toBe('site');
    expect(configGroupOf('shop.orders.limit')).toBe('shop');
    expect(configGroupOf('plain')).toBe('other');
    const groups = groupConfigs([
      row('shop.b'),
      row('sys.site.title'),
      row('sys.security.z'),
      row('sys.security.a'),
    ]);
    expect(groups.map((g) => g.group)).toEqual(['security', 'site', 'shop']);
    expect(groups[0]?.rows.map((r) => r.key)).toEqual(['sys.security.a', 'sys.security.z']);
  });

  it('sends only the drafts that differ from the stored values', () => {
    const rows = [row('a', '1'), row('b', 'x'), row('c', 'true')];
    expect(changedEntries(rows, { a: '1', b: 'y', c: 'false', gone: '3' })).toEqual([
      { key: 'b', value: 'y' },
      { key: 'c', value: 'false' },
    ]);
  });

  it('names a knob message without nesting dots', () => {
    expect(knobMessageKey('sys.security.captcha.type')).toBe('config.knob.sys_security_captcha_type');
  });
});
