/**
 * A CRUD page: the list (see list.ts), the create/edit form (one form for both: no `id` creates, an `id`
 * updates), delete with a confirmation, batch delete of checked rows, and the export of the rows on screen. The
 * calls are the page's own typed calls (`(form) => api.POST('/api/v1/…', { body })`): what they answer is read
 * through `unwrap`, so `onCreated` gets the operation's data as the contract declares it.
 */
import { type Ref, ref, type VNode } from 'vue';
import { type BlobResult, downloadOf, saveDownload } from '../api/download.js';
import { type DataOf, unwrap } from '../api/envelope.js';
import type { PageFeedback } from './feedback.js';
import { type CrudList, type CrudListOptions, createCrudList } from './list.js';

/** What openapi-fetch answers for a call (the typed result `unwrap` reads). */
export interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** What a successful write changed; `onChanged` sees it before the list loads again. */
export type CrudChange<Row, Form> =
  | { kind: 'save'; form: Form }
  | { kind: 'remove'; row: Row }
  | { kind: 'removeMany'; ids: number[] };

export type CrudPageOptions<
  Row,
  Filters,
  Form extends { id?: number },
  Created extends CallResult = CallResult,
> = CrudListOptions<Row, Filters> & {
  /** The form of a new row. */
  blank?: () => Form;
  /** The form of an existing row (may load the row's details; a failure shows its message, no form opens). */
  toForm?: (row: Row) => Form | Promise<Form>;
  /** Creates the row of a form without `id`. */
  create?: (form: Form) => Promise<Created>;
  /** Saves a form with `id`. */
  update?: (form: Form & { id: number }) => Promise<CallResult>;
  /** Runs with the created row's data (the operation's `data`) before the form closes. */
  onCreated?: (data: DataOf<Created>, form: Form) => void;
  /** Deletes one row. */
  remove?: (row: Row) => Promise<CallResult>;
  /** Deletes the checked rows. */
  removeMany?: (ids: number[]) => Promise<CallResult>;
  /** The message key of the question before a batch delete (given `{count}`). @default 'common.confirmDelete' */
  confirmMany?: string;
  /** After every successful write, before the list loads again (drop a cache, follow a selection). */
  onChanged?: (change: CrudChange<Row, Form>) => unknown;
  /** The export of the rows on screen: the call (`parseAs: 'blob'`) for the applied filters. */
  exportFile?: (filters: Filters) => Promise<BlobResult>;
  /** The file name when the answer names none. @default 'export.xlsx' */
  exportName?: string;
};

export interface CrudPage<Row, Filters, Form extends { id?: number }>
  extends CrudList<Row, Filters>,
    PageFeedback {
  /** The open form (create or edit), undefined while none is open. */
  editing: Ref<Form | undefined>;
  /** Opens the form of a new row; `preset` overrides fields of `blank()` (a parent, a type). */
  openCreate: (preset?: Partial<Form>) => void;
  /** Opens the form of `row`. */
  openEdit: (row: Row) => Promise<void>;
  /** Closes the form without saving. */
  close: () => void;
  /** Creates or updates the open form; on success it closes, says "Done" and the list loads again. */
  save: () => Promise<void>;
  /** Asks, then deletes `row`. */
  remove: (row: Row) => void;
  /** Deletes `row` without asking (the page asked already, e.g. in a pop-confirm). */
  removeNow: (row: Row) => Promise<boolean>;
  /** The ids checked for a batch action (see `checkColumn`); emptied by every write. */
  checked: Ref<number[]>;
  /** Asks, then deletes the checked rows. */
  removeChecked: () => void;
  /** The export dialog is open. */
  exporting: Ref<boolean>;
  /** The export is under way. */
  exportBusy: Ref<boolean>;
  /** Downloads the export of the applied filters, then closes the dialog. */
  runExport: () => Promise<void>;
  /** The row's Edit button (only with `code`, the update route's permission code); `testid` names it. */
  editButton: (row: Row, code: string, testid: string) => VNode | null;
  /** The row's Delete button (only with `code`), asking first; `testid` names it. */
  deleteButton: (row: Row, code: string, testid: string) => VNode | null;
}

const missing = (what: string) => () => Promise.reject(new Error(`useCrudPage: no ${what} given`));

/** The CRUD state of `options` over `feedback` (what `useCrudPage` hands it inside a component). */
export function createCrudPage<
  Row,
  Filters extends object,
  Form extends { id?: number },
  Created extends CallResult,
>(
  options: CrudPageOptions<Row, Filters, Form, Created>,
  feedback: PageFeedback,
): CrudPage<Row, Filters, Form> {
  const { t, fail, write, confirmDelete, action } = feedback;
  const list = createCrudList(options, fail);
  const editing = ref() as Ref<Form | undefined>;
  const checked = ref<number[]>([]);
  const exporting = ref(false);
  const exportBusy = ref(false);

  const changed = async (change: CrudChange<Row, Form>) => {
    checked.value = [];
    await options.onChanged?.(change);
    await list.reload();
  };

  function openCreate(preset: Partial<Form> = {}): void {
    if (!options.blank) throw new Error('useCrudPage: no blank form given');
    editing.value = { ...options.blank(), ...preset };
  }

  async function openEdit(row: Row): Promise<void> {
    if (!options.toForm) throw new Error('useCrudPage: no toForm given');
    try {
      editing.value = await options.toForm(row);
    } catch (e) {
      fail(e);
    }
  }

  async function save(): Promise<void> {
    const form = editing.value;
    if (!form) return;
    await write(
      async () => {
        if (form.id === undefined) {
          const data = unwrap(await (options.create ?? missing('create'))(form));
          options.onCreated?.(data, form);
        } else {
          unwrap(await (options.update ?? missing('update'))(form as Form & { id: number }));
        }
        editing.value = undefined;
      },
      () => changed({ kind: 'save', form }),
    );
  }

  const deleteRow = (row: Row) => async () => unwrap(await (options.remove ?? missing('remove'))(row));

  function removeChecked(): void {
    const ids = [...checked.value];
    confirmDelete(
      async () => unwrap(await (options.removeMany ?? missing('removeMany'))(ids)),
      () => changed({ kind: 'removeMany', ids }),
      options.confirmMany ? t(options.confirmMany, { count: ids.length }) : undefined,
    );
  }

  async function runExport(): Promise<void> {
    exportBusy.value = true;
    try {
      const result = await (options.exportFile ?? missing('exportFile'))(list.applied.value);
      saveDownload(await downloadOf(result, options.exportName ?? 'export.xlsx'));
      exporting.value = false;
    } catch (e) {
      fail(e);
    } finally {
      exportBusy.value = false;
    }
  }

  const remove = (row: Row) => confirmDelete(deleteRow(row), () => changed({ kind: 'remove', row }));

  return {
    ...feedback,
    ...list,
    editing,
    openCreate,
    openEdit,
    close: () => {
      editing.value = undefined;
    },
    save,
    remove,
    removeNow: (row) => write(deleteRow(row), () => changed({ kind: 'remove', row })),
    checked,
    removeChecked,
    exporting,
    exportBusy,
    runExport,
    editButton: (row, code, testid) => action(t('common.edit'), code, () => void openEdit(row), testid),
    deleteButton: (row, code, testid) => action(t('common.delete'), code, () => remove(row), testid, 'error'),
  };
}
