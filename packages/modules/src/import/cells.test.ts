import { describe, expect, it } from 'vitest';
import { cellText, exportCell, neutralise, readCellText, unneutralise } from './cells.js';

describe('export cells', () => {
  it('neutralises text a spreadsheet would run, also after leading whitespace, tab or CR', () => {
    for (const bad of ['=1+2', '+1', '-1', '@SUM(A1)', ' =1', '\t=1', '\r=1', '\n@x', '\tplain', '\rplain'])
      expect(neutralise(bad)).toBe(`'${bad}`);
    for (const fine of ['plain', 'a=b', '1-2', 'x@y.z', '']) expect(neutralise(fine)).toBe(fine);
  });

  it('keeps numbers and booleans as they are and empties null', () => {
    expect(exportCell(-5)).toBe(-5);
    expect(exportCell(true)).toBe(true);
    expect(exportCell(null)).toBeNull();
    expect(exportCell('-5')).toBe("'-5");
  });

  it('reads the text of rich text, hyperlinks and formula results', () => {
    expect(cellText({ richText: [{ text: 'a' }, { text: 'b ' }] })).toBe('ab');
    expect(cellText({ text: 'link', hyperlink: 'http://x' })).toBe('link');
    expect(cellText({ formula: '1+1', result: 2 })).toBe('2');
    expect(cellText(undefined)).toBe('');
    expect(cellText(' x ')).toBe('x');
  });

  it('reads no text from a cell the workbook holds no value for', () => {
    for (const value of [
      { formula: 'A1' },
      { formula: 'A1', result: undefined },
      { sharedFormula: 'B2' },
      { sharedString: 3 },
      new Date(Number.NaN),
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ]) {
      expect(readCellText(value)).toBeUndefined();
      expect(cellText(value)).toBe('');
    }
    expect(readCellText({ formula: 'A1', result: 0 })).toBe('0');
    expect(readCellText({ formula: 'A1', result: { error: '#DIV/0!' } })).toBe('');
    expect(readCellText({ text: 'link', hyperlink: 'http://x' })).toBe('link');
  });
});

describe('unneutralise', () => {
  it('gives back what an export neutralised, and leaves any other leading quote', () => {
    for (const value of ['=1+2', '+49 30-1234567', '-2+3', '@cmd', '\t=evil', ' =x'])
      expect(unneutralise(neutralise(value))).toBe(value);
    expect(unneutralise("'plain")).toBe("'plain");
    expect(unneutralise("''=x")).toBe("''=x");
    expect(unneutralise('plain')).toBe('plain');
  });
});
