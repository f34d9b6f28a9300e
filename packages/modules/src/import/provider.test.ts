import { BusinessError } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { loadExcel } from './provider.js';

describe('the lazily loaded Excel library', () => {
  it('answers 46001 naming the package when it cannot be loaded, and tries again on the next call', async () => {
    const missing = () => Promise.reject(new Error("Cannot find package 'exceljs'"));
    const error = await loadExcel(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusinessError);
    expect(error).toMatchObject({ code: 46001, args: { package: 'exceljs' } });
    // The failure is not cached: once installed, the next import or export works.
    const excel = await loadExcel();
    expect(typeof excel.Workbook).toBe('function');
    expect(await loadExcel(missing)).toBe(excel);
  });
});
