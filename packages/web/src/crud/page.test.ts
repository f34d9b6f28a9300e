/**
 * The CRUD page state against a fake server behind the real typed client: the paged list with its filters, sort
 * and states, create and update from one form, delete only after the confirmation, batch delete, the hook that
 * sees each change, and the export's failure. The types are the contract's (checked by `vue-tsc -p
 * tsconfig.test.json`): a field the generated schema does not have is a type error.
 */
import createClient from 'openapi-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ApiError, unwrap } from '../api/envelope.js';
import type { components, paths } from '../api/schema.js';
import { createPageFeedback, type FeedbackParts } from './feedback.js';
import { type CrudChange, createCrudPage } from './page.js';

type DictType = components['schemas']['DictType'];
interface Form {
  id?: number;
  name: string;
  code: string;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown) => json({ code: 0, msgKey: 'ok', data });

/** A dictionary-type table behind `/api/v1/sys/dict/type`, recording each request as `METHOD path?query`. */
function typeServer(count: number) {
  let rows: DictType[] = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `Type ${i + 1}`,
    code: `p${i + 1}`,
    enabled: true,
    remark: null,
    createTime: '2026-12-01T00:00:00.000Z',
  }));
  let nextId = count + 1;
  const seen: string[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search}`);
    const id = Number(/\/(\d+)$/.exec(url.pathname)?.[1]);
    if (request.method === 'GET' && url.pathname.endsWith('/page')) {
      const name = url.searchParams.get('name');
      if (name === 'broken') return json({ code: 50000, msgKey: 'error.internal', data: null }, 500);
      const current = Number(url.searchParams.get('current') ?? 1);
      const size = Number(url.searchParams.get('size') ?? 20);
      const hits = rows.filter((r) => !name || r.name.includes(name));
      const items = hits.slice((current - 1) * size, current * size);
      return ok({ current, size, total: hits.length, pages: Math.ceil(hits.length / size), items });
    }
    if (request.method === 'POST' && url.pathname.endsWith('/batch-delete')) {
      const { ids } = (await request.json()) as { ids: number[] };
      rows = rows.filter((r) => !ids.includes(r.id));
      return ok(null);
    }
    if (request.method === 'POST') {
      const body = (await request.json()) as Pick<DictType, 'name' | 'code'>;
      if (rows.some((r) => r.code === body.code))
        return json({ code: 40901, msgKey: 'error.dict.typeCodeExists', data: null }, 409);
      rows.push({ id: nextId, ...body, enabled: true, remark: null, createTime: '2026-12-02T00:00:00.000Z' });
      return ok({ id: nextId++ });
    }
    if (request.method === 'PUT') {
      const body = (await request.json()) as Pick<DictType, 'name' | 'code'>;
      rows = rows.map((r) => (r.id === id ? { ...r, ...body } : r));
      return ok(null);
    }
    if (request.method === 'DELETE') {
      rows = rows.filter((r) => r.id !== id);
      return ok(null);
    }
    return json({ code: 40400, msgKey: 'error.notFound', data: null }, 404);
  };
  return { seen, fetch, rows: () => rows };
}

/** A page over the fake server: what it showed (messages) and asked (the pending confirmation). */
function typesPage(count = 3) {
  const server = typeServer(count);
  const api = createClient<paths>({ baseUrl: 'http://console.test', fetch: server.fetch });
  const shown: string[] = [];
  const asked: Array<{ content: string; confirm: () => void }> = [];
  const changes: Array<CrudChange<DictType, Form>> = [];
  const parts = {
    t: (key: string, named?: Record<string, unknown>) =>
      named && Object.keys(named).length > 0 ? `${key} ${JSON.stringify(named)}` : key,
    te: () => true,
    api,
    user: { can: () => true },
    message: {
      error: (text: string) => shown.push(`error: ${text}`),
      success: (text: string) => shown.push(`success: ${text}`),
      info: (text: string) => shown.push(`info: ${text}`),
    },
    dialog: {
      warning: (o: { content: string; onPositiveClick: () => void }) =>
        asked.push({ content: o.content, confirm: o.onPositiveClick }),
    },
  } as unknown as FeedbackParts;
  const created: number[] = [];
  const bodyOf = (form: Form) => ({ name: form.name, code: form.code });
  const fieldsOf = (form: Form) => ({ name: form.name });
  const page = createCrudPage(
    {
      page: async (query, f) =>
        unwrap(
          await api.GET('/api/v1/sys/dict/type/page', {
            params: { query: { ...query, ...(f.name ? { name: f.name } : {}) } },
          }),
        ),
      filters: () => ({ name: '' }),
      pageSize: 2,
      pageSizes: [2, 10],
      blank: (): Form => ({ name: '', code: '' }),
      toForm: (row) => ({ id: row.id, name: row.name, code: row.code }),
      create: (form) => api.POST('/api/v1/sys/dict/type', { body: bodyOf(form) }),
      onCreated: (data) => {
        expectTypeOf(data).toEqualTypeOf<components['schemas']['CreatedId']>();
        created.push(data.id);
      },
      update: (form) =>
        api.PUT('/api/v1/sys/dict/type/{id}', { params: { path: { id: form.id } }, body: fieldsOf(form) }),
      remove: (row) => api.DELETE('/api/v1/sys/dict/type/{id}', { params: { path: { id: row.id } } }),
      removeMany: (ids) => api.POST('/api/v1/sys/dict/type/batch-delete', { body: { ids } }),
      confirmMany: 'dicts.confirmBatch',
      onChanged: (change) => {
        changes.push(change);
      },
      exportFile: () => api.GET('/api/v1/sys/user/export', { params: { query: {} }, parseAs: 'blob' }),
    },
    createPageFeedback(parts),
  );
  return { page, server, shown, asked, changes, created };
}

describe('useCrudPage: the list', () => {
  it('loads a page with the paging query and shows its rows and total', async () => {
    const { page, server } = typesPage(3);
    await page.reload();
    expect(server.seen).toEqual(['GET /api/v1/sys/dict/type/page?current=1&size=2']);
    expect(page.rows.value.map((r) => r.code)).toEqual(['p1', 'p2']);
    expectTypeOf(page.rows.value).toEqualTypeOf<DictType[]>();
    expect(page.pagination.itemCount).toBe(3);
    const table = page.table.value;
    expect(table).toMatchObject({ remote: true, loading: false, data: page.rows.value });
    expect(table.pagination).toMatchObject({
      page: 1,
      pageSize: 2,
      showSizePicker: true,
      pageSizes: [2, 10],
    });
  });

  it('pages, sorts and resizes from the table, back to page 1 on a sort or a size', async () => {
    const { page, server } = typesPage(5);
    await page.reload();
    page.table.value.onUpdatePage?.(3);
    await page.reload();
    expect(page.rows.value.map((r) => r.code)).toEqual(['p5']);
    page.table.value.onUpdateSorter?.({ columnKey: 'name', order: 'descend', sorter: true });
    await page.reload();
    expect(page.pagination.page).toBe(1);
    expect(server.seen.at(-1)).toBe(
      'GET /api/v1/sys/dict/type/page?current=1&size=2&sortField=name&sortOrder=desc',
    );
    page.table.value.onUpdatePage?.(2);
    page.table.value.onUpdatePageSize?.(10);
    await page.reload();
    expect(page.pagination).toMatchObject({ page: 1, pageSize: 10 });
  });

  it('keeps the applied filters apart from what is typed, and search goes back to page 1', async () => {
    const { page, server } = typesPage(5);
    page.table.value.onUpdatePage?.(2);
    page.filters.name = 'Type 4';
    expect(page.applied.value).toEqual({ name: '' });
    await page.search();
    expect(server.seen.at(-1)).toBe('GET /api/v1/sys/dict/type/page?current=1&size=2&name=Type%204');
    expect(page.applied.value).toEqual({ name: 'Type 4' });
    expect(page.rows.value.map((r) => r.code)).toEqual(['p4']);
  });

  it('shows a failed load and keeps the error, then the empty state once a load finds nothing', async () => {
    const { page, shown } = typesPage(2);
    page.filters.name = 'broken';
    await page.reload();
    expect(page.error.value).toBeInstanceOf(ApiError);
    expect(shown).toEqual(['error: error.internal']);
    expect(page.applied.value).toEqual({ name: '' });
    expect(page.empty.value).toBe(false);
    page.filters.name = 'nothing like it';
    await page.reload();
    expect(page.error.value).toBeUndefined();
    expect(page.empty.value).toBe(true);
  });
});

describe('useCrudPage: writes', () => {
  it('creates from the blank form, hands the created data over, closes, says done and reloads', async () => {
    const { page, server, shown, created, changes } = typesPage(1);
    page.openCreate({ code: 'lead' });
    expect(page.editing.value).toEqual({ name: '', code: 'lead' });
    if (page.editing.value) page.editing.value.name = 'Lead';
    await page.save();
    expect(created).toEqual([2]);
    expect(page.editing.value).toBeUndefined();
    expect(shown).toEqual(['success: common.success']);
    expect(changes).toEqual([{ kind: 'save', form: { name: 'Lead', code: 'lead' } }]);
    expect(server.seen.slice(-2)).toEqual([
      'POST /api/v1/sys/dict/type',
      'GET /api/v1/sys/dict/type/page?current=1&size=2',
    ]);
    expect(page.rows.value.map((r) => r.code)).toEqual(['p1', 'lead']);
  });

  it('updates a row through its form (with id) and keeps a failed form open with its message', async () => {
    const { page, server, shown } = typesPage(2);
    await page.reload();
    const first = page.rows.value[0] as DictType;
    await page.openEdit(first);
    expect(page.editing.value).toEqual({ id: 1, name: 'Type 1', code: 'p1' });
    if (page.editing.value) page.editing.value.name = 'Renamed';
    await page.save();
    expect(server.rows()[0]?.name).toBe('Renamed');
    expect(server.seen).toContain('PUT /api/v1/sys/dict/type/1');

    page.openCreate({ name: 'Copy', code: 'p2' });
    await page.save();
    expect(shown.at(-1)).toBe('error: error.dict.typeCodeExists');
    expect(page.editing.value).toEqual({ name: 'Copy', code: 'p2' });
  });

  it('deletes a row only once the confirmation is accepted; removeNow does not ask', async () => {
    const { page, server, asked, changes } = typesPage(3);
    await page.reload();
    page.remove(page.rows.value[0] as DictType);
    expect(asked.map((a) => a.content)).toEqual(['common.confirmDelete']);
    expect(server.rows()).toHaveLength(3);
    asked[0]?.confirm();
    await expect.poll(() => server.rows().length).toBe(2);
    await expect.poll(() => changes.map((c) => c.kind)).toEqual(['remove']);

    await page.removeNow(server.rows()[0] as DictType);
    expect(server.rows().map((r) => r.code)).toEqual(['p3']);
    expect(asked).toHaveLength(1);
  });

  it('batch-deletes the checked ids after asking with their count, and empties the selection', async () => {
    const { page, server, asked, changes } = typesPage(3);
    await page.reload();
    page.checked.value = [1, 3];
    page.removeChecked();
    expect(asked[0]?.content).toBe('dicts.confirmBatch {"count":2}');
    asked[0]?.confirm();
    await expect.poll(() => server.rows().map((r) => r.code)).toEqual(['p2']);
    await expect.poll(() => page.checked.value).toEqual([]);
    expect(changes).toEqual([{ kind: 'removeMany', ids: [1, 3] }]);
  });

  it('shows a failed export and leaves the dialog open, no longer busy', async () => {
    const { page, shown } = typesPage(1);
    page.exporting.value = true;
    await page.runExport();
    expect(shown).toEqual(['error: error.notFound']);
    expect(page.exporting.value).toBe(true);
    expect(page.exportBusy.value).toBe(false);
  });
});
