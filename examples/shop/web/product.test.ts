/**
 * The product page against a fake Shop server behind the real typed client (typed by the module's generated
 * schema.d.ts): the paged list with its name filter, the form's fields as the module's create and update take
 * them (the signed-in user's organisation on a create, a category required), delete only after the confirmation,
 * the export as a blob call, the form's categories, and the page registered under its menu's component path.
 */
import { composeConsole, createCrudPage, createPageFeedback, type FeedbackParts } from '@svc/web/module';
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { shopConsole, shopPages } from './index.js';
import { PRODUCT_PAGE, type Product, productCategories, productCrud } from './product.js';
import type { components, paths } from './schema.js';

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msgKey: 'ok', data }), {
    headers: { 'Content-Type': 'application/json' },
  });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const tea: Product = {
  id: 1,
  categoryId: 3,
  orgId: 5,
  name: 'Tea',
  code: 'tea',
  priceCents: 350,
  stock: 12,
  enabled: true,
  remark: null,
  createUserId: 1,
  createTime: '2026-01-01T08:00:00.000Z',
  updateTime: null,
};
const drinks: components['schemas']['ShopCategory'] = {
  id: 3,
  name: 'Drinks',
  code: 'drinks',
  sort: 0,
  remark: null,
  createTime: '2026-01-01T08:00:00.000Z',
  updateTime: null,
};

function productsPage(orgId: number | null = 5) {
  const seen: Array<{ call: string; body?: unknown }> = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    const body = request.method === 'POST' || request.method === 'PUT' ? await request.json() : undefined;
    seen.push({ call: `${request.method} ${url.pathname}${url.search}`, ...(body ? { body } : {}) });
    if (url.pathname === '/api/v1/shop/product/export')
      return new Response(new Uint8Array([0x50, 0x4b]), {
        headers: { 'Content-Type': XLSX, 'Content-Disposition': 'attachment; filename="products.xlsx"' },
      });
    if (url.pathname === '/api/v1/shop/category/page')
      return ok({ current: 1, size: 100, total: 1, pages: 1, items: [drinks] });
    if (request.method === 'GET') return ok({ current: 1, size: 10, total: 1, pages: 1, items: [tea] });
    return ok(request.method === 'POST' ? { id: 2 } : null);
  };
  const asked: Array<() => void> = [];
  const errors: string[] = [];
  const parts = {
    t: (key: string) => key,
    te: () => true,
    api: undefined,
    user: { can: () => true },
    message: { error: (m: string) => errors.push(m), success: () => undefined, info: () => undefined },
    dialog: { warning: (o: { onPositiveClick: () => void }) => asked.push(o.onPositiveClick) },
  } as unknown as FeedbackParts;
  const api = createClient<paths>({ baseUrl: 'http://console.test', fetch });
  const options = productCrud(api, { orgId: () => orgId });
  return { api, options, page: createCrudPage(options, createPageFeedback(parts)), seen, asked, errors };
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

  it("creates in the user's organisation and updates with the fields the module takes", async () => {
    const { page, seen } = productsPage();
    page.openCreate({
      categoryId: 3,
      name: ' Coffee ',
      code: 'coffee',
      priceCents: 420,
      stock: 3,
      status: '0',
    });
    await page.save();
    expect(seen[0]).toEqual({
      call: 'POST /api/v1/shop/product',
      body: {
        categoryId: 3,
        orgId: 5,
        name: 'Coffee',
        code: 'coffee',
        priceCents: 420,
        stock: 3,
        enabled: false,
        remark: null,
      },
    });
    await page.openEdit(page.rows.value[0] as Product);
    expect(page.editing.value).toEqual({
      id: 1,
      categoryId: 3,
      name: 'Tea',
      code: 'tea',
      priceCents: 350,
      stock: 12,
      status: '1',
      remark: '',
    });
    if (page.editing.value) page.editing.value.remark = 'Green';
    await page.save();
    // An edit keeps the product's organisation: no orgId.
    expect(seen.find((s) => s.call.startsWith('PUT'))).toEqual({
      call: 'PUT /api/v1/shop/product/1',
      body: {
        categoryId: 3,
        name: 'Tea',
        code: 'tea',
        priceCents: 350,
        stock: 12,
        enabled: true,
        remark: 'Green',
      },
    });
  });

  it('sends no create without a category or without an organisation of the user', async () => {
    const { page, seen, errors } = productsPage();
    page.openCreate({ name: 'Coffee', code: 'coffee' });
    await page.save();
    expect(errors).toEqual(['shop.product.categoryRequired']);
    expect(page.editing.value).toMatchObject({ name: 'Coffee' });

    const orphan = productsPage(null);
    orphan.page.openCreate({ categoryId: 3, name: 'Coffee', code: 'coffee' });
    await orphan.page.save();
    expect(orphan.errors).toEqual(['shop.product.orgRequired']);
    expect([...seen, ...orphan.seen].some((s) => s.call.startsWith('POST'))).toBe(false);
  });

  it('deletes a product only once the confirmation is accepted', async () => {
    const { page, seen, asked } = productsPage();
    await page.reload();
    page.remove(page.rows.value[0] as Product);
    expect(seen.some((s) => s.call.startsWith('DELETE'))).toBe(false);
    asked[0]?.();
    await expect.poll(() => seen.map((s) => s.call)).toContain('DELETE /api/v1/shop/product/1');
  });

  it('exports the products of the name filter as the workbook the module streams', async () => {
    const { options, seen } = productsPage();
    const result = await options.exportFile?.({ name: ' Tea ' });
    expect(seen.map((s) => s.call)).toEqual(['GET /api/v1/shop/product/export?name=Tea']);
    expect(result?.data).toBeInstanceOf(Blob);
    expect(options.exportName).toBe('products.xlsx');
  });

  it("offers the module's categories in the form", async () => {
    const { api, seen } = productsPage();
    expect(await productCategories(api)).toEqual([{ label: 'Drinks', value: 3 }]);
    expect(seen.map((s) => s.call)).toEqual(['GET /api/v1/shop/category/page?size=100']);
  });

  it("is registered under the Shop menu's component path", () => {
    expect(Object.keys(shopPages)).toEqual(['shop/product/index']);
    expect(PRODUCT_PAGE).toBe('shop/product/index');
    const { pages, messages } = composeConsole({ pages: {}, messages: {} }, [shopConsole]);
    expect(pages[PRODUCT_PAGE]).toBe(shopPages[PRODUCT_PAGE]);
    expect(messages['en-US']?.['shop.product.create']).toBe('New product');
    expect(Object.keys(messages['zh-CN'] ?? {}).filter((k) => k.startsWith('shop.'))).toEqual(
      Object.keys(messages['en-US'] ?? {}).filter((k) => k.startsWith('shop.')),
    );
  });
});
