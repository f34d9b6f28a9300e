/**
 * The product page against a fake Shop server behind the real typed client: the paged list with its name filter,
 * the form's fields as the module receives them, delete only after the confirmation, and the page registered
 * under its menu's component path.
 */
import { composeConsole, createCrudPage, createPageFeedback, type FeedbackParts } from '@svc/web/module';
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { shopConsole, shopPages } from './index.js';
import { PRODUCT_PAGE, productCrud } from './product.js';
import type { Product, paths } from './schema.js';

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msgKey: 'ok', data }), {
    headers: { 'Content-Type': 'application/json' },
  });

function productsPage() {
  const products: Product[] = [
    { id: 1, name: 'Tea', code: 'tea', price: 350, stock: 12, enabled: true, remark: null, createTime: '' },
  ];
  const seen: Array<{ call: string; body?: unknown }> = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    const body = request.method === 'POST' || request.method === 'PUT' ? await request.json() : undefined;
    seen.push({ call: `${request.method} ${url.pathname}${url.search}`, ...(body ? { body } : {}) });
    if (request.method === 'GET')
      return ok({ current: 1, size: 10, total: products.length, pages: 1, items: products });
    return ok(request.method === 'POST' ? { id: 2 } : null);
  };
  const asked: Array<() => void> = [];
  const parts = {
    t: (key: string) => key,
    te: () => true,
    api: undefined,
    user: { can: () => true },
    message: { error: () => undefined, success: () => undefined, info: () => undefined },
    dialog: { warning: (o: { onPositiveClick: () => void }) => asked.push(o.onPositiveClick) },
  } as unknown as FeedbackParts;
  const api = createClient<paths>({ baseUrl: 'http://console.test', fetch });
  return { page: createCrudPage(productCrud(api), createPageFeedback(parts)), seen, asked };
}

describe('the product page', () => {
  it('lists a page of products filtered by the trimmed name', async () => {
    const { page, seen } = productsPage();
    page.filters.name = '  Tea ';
    await page.reload();
    expect(seen.map((s) => s.call)).toEqual(['GET /api/v1/shop/product/page?current=1&size=20&name=Tea']);
    expect(page.rows.value.map((p) => p.code)).toEqual(['tea']);
    expect(page.table.value.pagination).toMatchObject({ pageSizes: [10, 20, 50, 100] });
  });

  it('creates and updates with the fields the module takes (status as enabled, a blank remark as null)', async () => {
    const { page, seen } = productsPage();
    page.openCreate({ name: ' Coffee ', code: 'coffee', price: 420, stock: 3, status: '0' });
    await page.save();
    expect(seen[0]).toEqual({
      call: 'POST /api/v1/shop/product',
      body: { name: 'Coffee', code: 'coffee', price: 420, stock: 3, enabled: false, remark: null },
    });
    await page.openEdit(page.rows.value[0] as Product);
    expect(page.editing.value).toEqual({
      id: 1,
      name: 'Tea',
      code: 'tea',
      price: 350,
      stock: 12,
      status: '1',
      remark: '',
    });
    if (page.editing.value) page.editing.value.remark = 'Green';
    await page.save();
    expect(seen.find((s) => s.call.startsWith('PUT'))).toEqual({
      call: 'PUT /api/v1/shop/product/1',
      body: { name: 'Tea', code: 'tea', price: 350, stock: 12, enabled: true, remark: 'Green' },
    });
  });

  it('deletes a product only once the confirmation is accepted', async () => {
    const { page, seen, asked } = productsPage();
    await page.reload();
    page.remove(page.rows.value[0] as Product);
    expect(seen.some((s) => s.call.startsWith('DELETE'))).toBe(false);
    asked[0]?.();
    await expect.poll(() => seen.map((s) => s.call)).toContain('DELETE /api/v1/shop/product/1');
  });

  it("is registered under the Shop menu's component path", () => {
    expect(Object.keys(shopPages)).toEqual(['shop/product/index']);
    expect(PRODUCT_PAGE).toBe('shop/product/index');
    const { pages, messages } = composeConsole({ pages: {}, messages: {} }, [shopConsole]);
    expect(pages[PRODUCT_PAGE]).toBe(shopPages[PRODUCT_PAGE]);
    expect(messages['en-US']?.['shop.product.create']).toBe('New product');
  });
});
