/**
 * `unwrap` over the typed client against a fake server: the success `data` of the operation, typed from the
 * generated `paths` (checked by the console's type check: `vue-tsc -p tsconfig.test.json`), and the `ApiError` of a
 * failure envelope. Typed by the call, not by a type argument: a field the contract does not have is a type error.
 */
import createClient from 'openapi-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Answer, ApiError, type OperationData, unwrap } from './envelope.js';
import type { components, paths } from './schema.js';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const clientAnswering = (answer: () => Response) =>
  createClient<paths>({ baseUrl: 'http://console.test', fetch: async () => answer() });

type PositionPage = {
  current: number;
  size: number;
  total: number;
  pages: number;
  items: components['schemas']['PositionItem'][];
};

describe('unwrap', () => {
  it("answers the success envelope's data, typed as the operation's", async () => {
    const item = { id: 3, name: 'Lead', code: 'lead', sort: 1, enabled: true, remark: null };
    const api = clientAnswering(() =>
      json({ code: 0, msgKey: 'ok', data: { current: 1, size: 20, total: 1, pages: 1, items: [item] } }),
    );
    const page = unwrap(await api.GET('/api/v1/sys/position/page', { params: { query: {} } }));
    expectTypeOf(page).toEqualTypeOf<PositionPage>();
    expectTypeOf(page).toEqualTypeOf<OperationData<'getSysPositionPage'>>();
    expect(page.items).toEqual([item]);
    // @ts-expect-error: the contract's position has no `title`
    expect(page.items[0]?.title).toBeUndefined();
  });

  it('answers null for an operation whose success carries no data', async () => {
    const api = clientAnswering(() => json({ code: 0, msgKey: 'ok', data: null }));
    const done = unwrap(await api.DELETE('/api/v1/sys/position/{id}', { params: { path: { id: 3 } } }));
    expectTypeOf(done).toEqualTypeOf<null>();
    expect(done).toBeNull();
  });

  it('throws the ApiError of a failure envelope, with its status', async () => {
    const api = clientAnswering(() =>
      json({ code: 41001, msgKey: 'error.permission.noPermission', data: null }, 403),
    );
    const result = await api.GET('/api/v1/sys/position/page', { params: { query: {} } });
    expect(() => unwrap(result)).toThrow(ApiError);
    expect(() => unwrap(result)).toThrow(
      expect.objectContaining({ code: 41001, msgKey: 'error.permission.noPermission', status: 403 }),
    );
  });

  it('types a call handed around as a function by the data it answers (Answer<T>)', async () => {
    const api = clientAnswering(() => json({ code: 0, msgKey: 'ok', data: { id: 9 } }));
    const create = (): Promise<Answer<components['schemas']['CreatedId']>> =>
      api.POST('/api/v1/sys/position', { body: { name: 'Lead', code: 'lead' } });
    const created = unwrap(await create());
    expectTypeOf(created).toEqualTypeOf<components['schemas']['CreatedId']>();
    expect(created.id).toBe(9);
  });
});
