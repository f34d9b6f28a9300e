/**
 * Portal module administration: list, detail, create, update, delete. Codes are unique among live modules
 * (42012, also enforced by the database); the built-in `system` module cannot be deleted, renamed nor disabled
 * (42013: it holds the menus that administer modules, so a disabled one would leave no console way back),
 * and a module that still owns menus cannot be deleted (42023). Every write bumps the portal generation, so
 * every instance answers `/personal/modules` and `/personal/menu` from fresh data at the next request.
 */
import { type ModulePatch, SYSTEM_MODULE_CODE, type SysModuleRow, uniqueOr } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import type { AdminActor } from '../admin/actor.js';
import { AdminErrorCode } from '../admin/codes.js';
import type { PortalDeps } from './deps.js';

/** A module as the administration API shows it. */
export interface ModuleItem {
  id: number;
  code: string;
  title: string;
  icon: string | null;
  defaultRoute: string | null;
  apiPrefix: string | null;
  sort: number;
  enabled: boolean;
  remark: string | null;
  /** True for the built-in `system` module (not deletable). */
  builtIn: boolean;
  createTime: Date;
  updateTime: Date | null;
}

/** Writable module fields. */
export type ModuleFields = { [K in keyof ModulePatch]?: ModulePatch[K] | undefined };

export interface CreateModuleInput extends ModuleFields {
  code: string;
  title: string;
}

export interface ModuleAdminService {
  list(): Promise<ModuleItem[]>;
  detail(id: number): Promise<ModuleItem>;
  create(actor: AdminActor, input: CreateModuleInput): Promise<{ id: number }>;
  update(actor: AdminActor, id: number, input: ModuleFields): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
}

/** True for the built-in `system` module (any case: codes are unique ignoring case). */
export const isSystemModule = (row: Pick<SysModuleRow, 'code'>): boolean =>
  row.code.toLowerCase() === SYSTEM_MODULE_CODE;

export function toModuleItem(row: SysModuleRow): ModuleItem {
  return {
    id: row.id,
    code: row.code,
    title: row.title,
    icon: row.icon,
    defaultRoute: row.defaultRoute,
    apiPrefix: row.apiPrefix,
    sort: row.sort,
    enabled: row.enabled,
    remark: row.remark,
    builtIn: isSystemModule(row),
    createTime: row.createTime,
    updateTime: row.updateTime,
  };
}

export function createModuleAdminService(deps: PortalDeps): ModuleAdminService {
  const { repos, now } = deps;
  const codeExists = (code: string) => new BusinessError(AdminErrorCode.ModuleCodeExists, { code });
  const found = async (id: number) => {
    const row = await repos.modules.findById(id);
    if (!row) throw new BusinessError(AdminErrorCode.ModuleNotFound);
    return row;
  };
  const defined = (input: ModuleFields): ModulePatch =>
    Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as ModulePatch;

  return {
    async list() {
      return (await repos.modules.listAll()).map(toModuleItem);
    },

    async detail(id) {
      return toModuleItem(await found(id));
    },

    async create(actor, input) {
      const code = input.code.trim();
      if (await repos.modules.codeTaken(code)) throw codeExists(code);
      const id = await uniqueOr(
        () =>
          repos.modules.insert({
            ...defined(input),
            code,
            title: input.title,
            createTime: now(),
            createUserId: actor.userId,
          }),
        () => codeExists(code),
      );
      await deps.bumpGeneration();
      return { id };
    },

    async update(actor, id, input) {
      const row = await found(id);
      const patch = defined(input);
      if (patch.code !== undefined) {
        patch.code = patch.code.trim();
        if (isSystemModule(row) && patch.code.toLowerCase() !== SYSTEM_MODULE_CODE)
          throw new BusinessError(AdminErrorCode.ModuleProtected, { reason: 'rename' });
        if (await repos.modules.codeTaken(patch.code, id)) throw codeExists(patch.code);
      }
      if (patch.enabled === false && row.enabled && isSystemModule(row))
        throw new BusinessError(AdminErrorCode.ModuleProtected, { reason: 'disable' });
      const code = patch.code ?? row.code;
      const done = await uniqueOr(
        () => repos.modules.update(id, patch, { userId: actor.userId, at: now() }),
        () => codeExists(code),
      );
      if (!done) throw new BusinessError(AdminErrorCode.ModuleNotFound);
      await deps.bumpGeneration();
    },

    async remove(actor, id) {
      const row = await found(id);
      if (isSystemModule(row)) throw new BusinessError(AdminErrorCode.ModuleProtected);
      if (await repos.modules.hasMenus(id)) throw new BusinessError(AdminErrorCode.ModuleHasMenus);
      if (!(await repos.modules.softDelete(id, { userId: actor.userId, at: now() })))
        throw new BusinessError(AdminErrorCode.ModuleNotFound);
      await deps.bumpGeneration();
    },
  };
}
