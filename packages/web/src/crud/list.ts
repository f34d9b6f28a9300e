/**
 * The list half of a CRUD page: one of the API's paging endpoints (contract §3: `current`/`size`, `sortField`/
 * `sortOrder`, the page's `total`) or a whole list (a tree, a short table), with the search form's filters, the
 * loading, empty and error states, and the props a Naive UI data table takes. Framework state only (Vue refs), no
 * component instance: `useCrudPage` and `PagedTable` build on it, and it is tested without a browser.
 */
import type { DataTableSortState, PaginationProps } from 'naive-ui';
import { type ComputedRef, computed, type Ref, reactive, ref, shallowRef } from 'vue';

/** The paging part of a list call. */
export interface PageQuery {
  current: number;
  size: number;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

/** One page of rows, as the paging endpoints answer it. */
export interface Page<Row> {
  items: Row[];
  total: number;
}

/** Where the rows come from: a paging endpoint (`page`) or a call answering every row (`list`). */
export type RowSource<Row, Filters> =
  | {
      /** One page for the query and the search form's filters (the table pages on the server). */
      page: (query: PageQuery, filters: Filters) => Promise<Page<Row>>;
      list?: never;
    }
  | {
      /** Every row for the search form's filters (a tree, a short table). */
      list: (filters: Filters) => Promise<readonly Row[]>;
      page?: never;
    };

export type CrudListOptions<Row, Filters> = RowSource<Row, Filters> & {
  /** The search form's fields and their first values. @default () => ({}) */
  filters?: () => Filters;
  /** Rows a page. @default 20 */
  pageSize?: number;
  /** The page sizes to pick from; without them the table shows no size picker. */
  pageSizes?: number[];
  /** The key of a row in the table. @default (row) => row.id */
  rowKey?: (row: Row) => string | number;
  /** Runs after every successful load with the rows on screen (e.g. to expand a tree's new parents). */
  onLoaded?: (rows: Row[]) => void;
};

/** The props of a Naive UI `NDataTable` showing the list: `<NDataTable v-bind="table" :columns="columns" />`. */
export interface CrudTableProps<Row> {
  data: Row[];
  loading: boolean;
  rowKey: (row: Row) => string | number;
  remote?: boolean;
  pagination?: PaginationProps;
  onUpdatePage?: (page: number) => void;
  onUpdatePageSize?: (size: number) => void;
  onUpdateSorter?: (state: DataTableSortState | null) => void;
}

export interface CrudList<Row, Filters> {
  /** The rows on screen; shallow: to change a row, assign a new array (`rows.value = rows.value.map(…)`). */
  rows: Ref<Row[]>;
  loading: Ref<boolean>;
  /** The failure of the last load (its message was shown), undefined after a successful one. */
  error: Ref<unknown>;
  /** True when a load succeeded with no rows. */
  empty: ComputedRef<boolean>;
  /** The search form's fields (bind the inputs to them). */
  filters: Filters;
  /** The filters of the rows on screen (what an export repeats), not what is typed but not searched yet. */
  applied: Ref<Filters>;
  /** Page, size and total; only for a paging source. */
  pagination: { page: number; pageSize: number; itemCount: number };
  table: ComputedRef<CrudTableProps<Row>>;
  /** Loads the current page again (after a write, or the search button keeping the page). */
  reload: () => Promise<void>;
  /** Back to the first page, then loads. */
  search: () => Promise<void>;
}

/**
 * The list state of `options`; `fail` shows a failed load's message.
 *
 * @example
 * const list = createCrudList({ page: (query, f) => api.GET('/api/v1/sys/position/page', …).then(unwrap),
 *   filters: () => ({ name: '' }) }, fail);
 */
export function createCrudList<Row, Filters extends object>(
  options: CrudListOptions<Row, Filters>,
  fail: (e: unknown) => void,
): CrudList<Row, Filters> {
  // Shallow, as large tables want it: a page changing one row replaces the array (see `CrudList.rows`).
  const rows = shallowRef<Row[]>([]) as Ref<Row[]>;
  const loading = ref(false);
  const error = shallowRef<unknown>();
  const loaded = ref(false);
  const initial = options.filters ?? (() => ({}) as Filters);
  const filters = reactive(initial()) as Filters;
  const applied = shallowRef(initial()) as Ref<Filters>;
  const paged = options.page !== undefined;
  const pagination = reactive({
    page: 1,
    pageSize: options.pageSize ?? 20,
    itemCount: 0,
    ...(options.pageSizes ? { showSizePicker: true, pageSizes: options.pageSizes } : {}),
  });
  const sort = shallowRef<{ field: string; order: 'asc' | 'desc' } | undefined>();
  const rowKey = options.rowKey ?? ((row: Row) => (row as { id: number }).id);

  async function reload(): Promise<void> {
    loading.value = true;
    const used = { ...filters } as Filters;
    try {
      if (options.page) {
        const page = await options.page(
          {
            current: pagination.page,
            size: pagination.pageSize,
            ...(sort.value ? { sortField: sort.value.field, sortOrder: sort.value.order } : {}),
          },
          used,
        );
        rows.value = page.items;
        pagination.itemCount = page.total;
      } else if (options.list) {
        rows.value = [...(await options.list(used))];
      }
      applied.value = used;
      error.value = undefined;
      loaded.value = true;
      options.onLoaded?.(rows.value);
    } catch (e) {
      error.value = e;
      fail(e);
    } finally {
      loading.value = false;
    }
  }

  async function search(): Promise<void> {
    pagination.page = 1;
    await reload();
  }

  function onSort(state: DataTableSortState | null): void {
    sort.value =
      state && state.order !== false
        ? { field: String(state.columnKey), order: state.order === 'ascend' ? 'asc' : 'desc' }
        : undefined;
    void search();
  }

  const table = computed<CrudTableProps<Row>>(() => ({
    data: rows.value,
    loading: loading.value,
    rowKey,
    ...(paged
      ? {
          remote: true,
          pagination,
          onUpdatePage: (page: number) => {
            pagination.page = page;
            void reload();
          },
          onUpdatePageSize: (size: number) => {
            pagination.pageSize = size;
            void search();
          },
          onUpdateSorter: onSort,
        }
      : {}),
  }));

  return {
    rows,
    loading,
    error,
    empty: computed(() => loaded.value && !loading.value && rows.value.length === 0),
    filters,
    applied,
    pagination,
    table,
    reload,
    search,
  };
}
