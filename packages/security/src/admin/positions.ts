/**
 * Position administration: page, detail, create, update, soft delete.
 */
import type { Page, PositionPageQuery, SysPositionRow } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import type { AdminActor } from './actor.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import type { Patch } from './patch.js';

/** A position as the administration API shows it. */
export type PositionItem = Pick<
  SysPositionRow,
  'id' | 'name' | 'code' | 'sort' | 'enabled' | 'remark' | 'createTime' | 'updateTime'
>;

export type PositionFields = Patch<Pick<SysPositionRow, 'name' | 'code' | 'sort' | 'enabled' | 'remark'>>;

export interface CreatePositionInput extends PositionFields {
  name: string;
  code: string;
}

export interface PositionAdminService {
  page(actor: AdminActor, query: PositionPageQuery): Promise<Page<PositionItem>>;
  detail(actor: AdminActor, id: number): Promise<PositionItem>;
  create(actor: AdminActor, input: CreatePositionInput): Promise<{ id: number }>;
  update(actor: AdminActor, id: number, input: PositionFields): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
}

export function toPositionItem(row: SysPositionRow): PositionItem {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    sort: row.sort,
    enabled: row.enabled,
    remark: row.remark,
    createTime: row.createTime,
    updateTime: row.updateTime,
  };
}

const notFound = () => new BusinessError(AdminErrorCode.PositionNotFound);
const defined = (input: object) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

export function createPositionAdminService(deps: ResolvedAdminDeps): PositionAdminService {
  const { repos, now } = deps;
  const stamp = (actor: AdminActor) => ({ userId: actor.userId, at: now() });

  return {
    async page(_actor, query) {
      const page = await repos.positions.page(query);
      return { ...page, items: page.items.map(toPositionItem) };
    },

    async detail(_actor, id) {
      const row = await repos.positions.findById(id);
      if (!row) throw notFound();
      return toPositionItem(row);
    },

    async create(actor, input) {
      const at = now();
      const id = await repos.positions.insert({
        ...defined(input),
        name: input.name,
        code: input.code,
        createTime: at,
        createUserId: actor.userId,
      });
      return { id };
    },

    async update(actor, id, input) {
      if (!(await repos.positions.update(id, defined(input), stamp(actor)))) throw notFound();
    },

    async remove(actor, id) {
      if (!(await repos.positions.softDelete(id, stamp(actor)))) throw notFound();
    },
  };
}
