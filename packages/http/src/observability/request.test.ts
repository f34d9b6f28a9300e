import { describe, expect, it } from 'vitest';
import { toTemplate } from './request.js';

describe('route templates', () => {
  it('turn Hono parameters (with or without a pattern, optional) into OpenAPI-style templates', () => {
    expect(toTemplate('/api/v1/sys/user/:id')).toBe('/api/v1/sys/user/{id}');
    expect(toTemplate('/api/v1/file/:id{[0-9]+}/view')).toBe('/api/v1/file/{id}/view');
    expect(toTemplate('/a/:x{\\d{2,3}}/:y?')).toBe('/a/{x}/{y}');
    expect(toTemplate('/api/v1/sys/user/page')).toBe('/api/v1/sys/user/page');
    expect(toTemplate('*')).toBe('*');
  });
});
