import { describe, expect, it } from 'vitest';
import { assertPageSize, canonicalKeys, pageQuerySchema, textParam } from './query.js';

describe('admin paging queries (contract §3)', () => {
  it('matches parameter names case-insensitively, the exact spelling winning', () => {
    expect(canonicalKeys(['size', 'sortField'])({ SIZE: '5', SortField: 'x', other: '1' })).toEqual({
      size: '5',
      sortField: 'x',
      other: '1',
    });
    expect(canonicalKeys(['size'])({ SIZE: '9', size: '5' })).toEqual({ size: '5' });
  });

  it('parses numbers and filters, refuses malformed ones', () => {
    const schema = pageQuerySchema({ account: textParam.optional() });
    expect(schema.parse({ Current: '2', SIZE: '-1', ACCOUNT: 'a' })).toEqual({
      current: 2,
      size: -1,
      account: 'a',
    });
    expect(schema.safeParse({ size: '2.5' }).success).toBe(false);
    expect(schema.safeParse({ current: 'x' }).success).toBe(false);
  });

  it('throws 48001 with size and max above the maximum only', () => {
    expect(() => assertPageSize({ size: 200 }, 200)).not.toThrow();
    expect(() => assertPageSize({}, 200)).not.toThrow();
    expect(() => assertPageSize({ size: 201 }, 200)).toThrow(
      expect.objectContaining({ code: 48001, args: { size: 201, max: 200 } }),
    );
  });
});
