import { describe, expect, it } from 'vitest';
import {
  boundedPageQuery,
  canonicalKeys,
  pageQuerySchema,
  pageSizeExceeded,
  querySchema,
  textParam,
} from './query.js';

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

  it('bounded by a ceiling, refuses a larger size with 48001 args {size, max}, only once all else is valid', () => {
    const schema = pageQuerySchema({ account: textParam.optional() });
    // Unbounded, as declared: the ceiling is the app's, given when the route is registered.
    expect(schema.safeParse({ size: '201' }).success).toBe(true);
    const bounded = boundedPageQuery(schema, 200);
    if (bounded === undefined) throw new Error('a paged query schema has a bounded form');
    expect(bounded.parse({ SIZE: '200', account: 'a' })).toEqual({ size: 200, account: 'a' });
    expect(bounded.safeParse({}).success).toBe(true);
    const over = bounded.safeParse({ Size: '201' });
    expect(over.success).toBe(false);
    expect(over.error && pageSizeExceeded(over.error)).toEqual({ size: 201, max: 200 });
    // A malformed parameter beside it answers 48000 naming that parameter alone.
    const both = bounded.safeParse({ size: '201', current: 'x' });
    expect(both.error?.issues.map((i) => i.path.join('.'))).toEqual(['current']);
    expect(both.error && pageSizeExceeded(both.error)).toBeUndefined();
    // The ceiling is per bounded schema: another app's ceiling does not leak into this one.
    expect(boundedPageQuery(schema, 5)?.safeParse({ size: '6' }).success).toBe(false);
    expect(bounded.safeParse({ size: '6' }).success).toBe(true);
  });

  it('bounds only paged query schemas', () => {
    expect(boundedPageQuery(querySchema({ size: textParam.optional() }), 200)).toBeUndefined();
    expect(boundedPageQuery(undefined, 200)).toBeUndefined();
  });
});
