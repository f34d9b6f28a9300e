import { describe, expect, it } from 'vitest';
import { type ExportColumn, pickColumns } from './export.js';

const all = ['id', 'account', 'realName'].map((key) => ({
  key,
  header: key,
  value: () => key,
})) as unknown as ExportColumn<unknown>[];
const keys = (columns: ExportColumn<unknown>[]) => columns.map((c) => c.key);

describe('pickColumns', () => {
  it('answers every column when none is named, also for separators alone', () => {
    for (const columns of [undefined, '', '  ', ',', ' , ,', ',,,'])
      expect(keys(pickColumns(all, columns))).toEqual(['id', 'account', 'realName']);
  });

  it('answers the named columns in the asked order, once each, in any case', () => {
    expect(keys(pickColumns(all, 'REALNAME, id,,realname'))).toEqual(['realName', 'id']);
  });

  it('refuses an unknown column (46013)', () => {
    expect(() => pickColumns(all, 'id,password')).toThrow(expect.objectContaining({ code: 46013 }));
  });
});
