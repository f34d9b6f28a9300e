/**
 * User administration: the scoped page and detail, create with an initial password, update with role
 * assignment, soft delete (one or a batch), admin password reset, enable/disable. Rules: the super admin is
 * untouchable by anyone else and can never be deleted or disabled (42007); nobody deletes or disables
 * themselves, nor lifts a second factor required of them (42029); every row read or written must be inside the
 * caller's data scope, one outside it answering as a missing one does (42001, a batch is refused as a whole,
 * contract §11), and a user is placed only in an organisation the caller sees (41005); assigned roles may only grant codes the caller holds (41001). Deleting or disabling a
 * user revokes their sessions; every role change invalidates their cached codes.
 */
import { isInDataScope, type Page, type SysUserRow, type UserPageQuery, uniqueOr } from '@svc/data';
import {
  BusinessError,
  ErrorCode,
  type ErrorCodeMember,
  generateStrongPassword,
  hashPassword,
} from '@svc/kernel';
import { assertPassword } from '../password-policy.js';
import { normalizeAccountName } from './account-name.js';
import { type AdminActor, assertCanGrant } from './actor.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import type { Patch } from './patch.js';
import { codesOfPermissionTexts } from './permission-codes.js';
import { assertOutranksUsers, assertScopeWithin } from './rank.js';

/** A user as the administration API shows it (contract §5 user item, plus a few fields). */
export interface UserItem
  extends Pick<
    SysUserRow,
    | 'id'
    | 'account'
    | 'realName'
    | 'nickName'
    | 'orgId'
    | 'positionId'
    | 'phone'
    | 'email'
    | 'gender'
    | 'avatar'
    | 'enabled'
    | 'isSuperAdmin'
    | 'mustChangePassword'
    | 'forceTotp'
    | 'remark'
    | 'lastLoginTime'
    | 'createTime'
    | 'updateTime'
  > {
  totpBound: boolean;
  roleIds: number[];
}

/** Editable profile fields of a user. */
export interface UserFields
  extends Patch<
    Pick<
      SysUserRow,
      | 'realName'
      | 'nickName'
      | 'orgId'
      | 'positionId'
      | 'phone'
      | 'email'
      | 'gender'
      | 'avatar'
      | 'forceTotp'
      | 'remark'
    >
  > {
  /** Replaces the user's roles when given. */
  roleIds?: number[] | undefined;
}

export interface CreateUserInput extends UserFields {
  account: string;
  realName: string;
  /** The initial password the admin chose, checked against the password policy (42019); else generated. */
  password?: string | undefined;
  /** @default true */
  enabled?: boolean | undefined;
}

export interface CreatedUser {
  id: number;
  /** Present only when the password was generated: shown once, never stored in clear. */
  initialPassword?: string;
}

export interface UserAdminService {
  page(actor: AdminActor, query: UserPageQuery): Promise<Page<UserItem>>;
  detail(actor: AdminActor, id: number): Promise<UserItem>;
  create(actor: AdminActor, input: CreateUserInput): Promise<CreatedUser>;
  update(actor: AdminActor, id: number, input: UserFields): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
  removeMany(actor: AdminActor, ids: readonly number[]): Promise<number>;
  /** Sets a new initial password, forces a change at next login; returns it. */
  resetPassword(actor: AdminActor, id: number): Promise<{ password: string }>;
  setEnabled(actor: AdminActor, id: number, enabled: boolean): Promise<void>;
  /**
   * The checks of every action on another user (42001, 42007, 41005, 41001 above the caller's rank), for
   * actions that live elsewhere (MFA clear).
   */
  checkTarget(actor: AdminActor, id: number): Promise<void>;
}

/** Maps a row and its role ids to the API shape (also used by the personal centre). */
export function toUserItem(row: SysUserRow, roleIds: number[]): UserItem {
  return {
    id: row.id,
    account: row.account,
    realName: row.realName,
    nickName: row.nickName,
    orgId: row.orgId,
    positionId: row.positionId,
    phone: row.phone,
    email: row.email,
    gender: row.gender,
    avatar: row.avatar,
    enabled: row.enabled,
    isSuperAdmin: row.isSuperAdmin,
    mustChangePassword: row.mustChangePassword,
    forceTotp: row.forceTotp,
    totpBound: row.totpSecret !== null || row.totpBoundTime !== null,
    roleIds,
    remark: row.remark,
    lastLoginTime: row.lastLoginTime,
    createTime: row.createTime,
    updateTime: row.updateTime,
  };
}

const fail = (member: ErrorCodeMember, args?: Record<string, unknown>) => new BusinessError(member, args);

export function createUserAdminService(deps: ResolvedAdminDeps): UserAdminService {
  const { repos, now } = deps;
  const stamp = (actor: AdminActor) => ({ userId: actor.userId, at: now() });

  /**
   * A live user the caller may touch: 42001 (also for one outside the caller's data scope, contract §11: ids
   * cannot be counted), 42007 (super admin, others than themselves; checked after the scope, so it names no one
   * the caller cannot see), 41001 (the target holds codes the caller lacks).
   */
  async function target(actor: AdminActor, id: number): Promise<SysUserRow> {
    const row = await visibleUser(actor, id);
    if (row.isSuperAdmin && !actor.isSuperAdmin) throw fail(AdminErrorCode.SuperAdminProtected);
    await assertOutranksUsers(deps, actor, [row.id]);
    return row;
  }

  /** A live user inside the caller's data scope; 42001 alike for a missing one and one outside it. */
  async function visibleUser(actor: AdminActor, id: number): Promise<SysUserRow> {
    const row = await repos.users.findById(id);
    if (!row || !isInDataScope(await actor.scope(), { orgId: row.orgId, ownerId: row.id }))
      throw fail(AdminErrorCode.UserNotFound);
    return row;
  }

  /** Organisation and position exist, and the organisation is one the caller may place users in. */
  async function checkPlacement(actor: AdminActor, fields: UserFields, current?: SysUserRow): Promise<void> {
    if (fields.orgId !== undefined && fields.orgId !== current?.orgId) {
      if (fields.orgId !== null && !(await repos.orgs.findById(fields.orgId)))
        throw fail(AdminErrorCode.OrgNotFound);
      // The user must stay visible to the one who places them: an org outside the scope is refused.
      const ownerId = current?.id ?? null;
      if (!isInDataScope(await actor.scope(), { orgId: fields.orgId, ownerId }))
        throw fail(ErrorCode.OutOfDataScope);
    }
    if (
      fields.positionId !== undefined &&
      fields.positionId !== null &&
      fields.positionId !== current?.positionId &&
      !(await repos.positions.findById(fields.positionId))
    )
      throw fail(AdminErrorCode.PositionNotFound);
  }

  /**
   * The roles exist; those added grant no code the caller lacks and let the user see no organisation the caller
   * does not (every role of the user when their organisation moves: Org scopes follow it).
   */
  async function checkRoles(
    actor: AdminActor,
    user: { id: number; orgId: number | null },
    roleIds: readonly number[],
    current: readonly number[],
    orgMoved = false,
  ) {
    const unique = [...new Set(roleIds)];
    const found = await repos.roles.findByIds(unique);
    const missing = unique.filter((id) => !found.some((r) => r.id === id));
    if (missing.length > 0) throw fail(AdminErrorCode.RoleNotFound, { ids: missing });
    const added = unique.filter((id) => !current.includes(id));
    if (added.length > 0)
      await assertCanGrant(actor, codesOfPermissionTexts(await repos.roles.permissionsOfRoles(added)));
    const widening = orgMoved ? unique : added;
    if (widening.length > 0)
      await assertScopeWithin(deps, actor, await repos.roles.scopesOfRoles(widening), [user]);
  }

  async function initialPassword(
    chosen?: string,
  ): Promise<{ plain: string; generated: boolean; hash: string }> {
    if (chosen !== undefined)
      return { plain: chosen, generated: false, hash: await hashPassword(chosen, deps.pbkdf2Iterations) };
    const configured = deps.defaultInitialPassword;
    const plain = configured ?? generateStrongPassword();
    return { plain, generated: configured === null, hash: await hashPassword(plain, deps.pbkdf2Iterations) };
  }

  function profileOf(fields: UserFields) {
    const { roleIds: _roles, password: _password, ...profile } = fields as CreateUserInput;
    return Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined));
  }

  async function removeMany(actor: AdminActor, ids: readonly number[]): Promise<number> {
    const unique = [...new Set(ids)];
    const scope = await actor.scope();
    const rows = (await repos.users.findByIds(unique)).filter((r) =>
      isInDataScope(scope, { orgId: r.orgId, ownerId: r.id }),
    );
    // One outside the scope is named with the missing ones, in the order given (contract §11).
    const missing = unique.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length > 0) throw fail(AdminErrorCode.UserNotFound, { ids: missing });
    if (rows.some((r) => r.isSuperAdmin)) throw fail(AdminErrorCode.SuperAdminProtected);
    if (actor.userId !== null && unique.includes(actor.userId)) throw fail(AdminErrorCode.CannotOperateSelf);
    await assertOutranksUsers(deps, actor, unique);
    const count = await repos.users.softDelete(unique, stamp(actor));
    for (const id of unique) {
      await deps.sessions.revokeUserSessions(id, 'user-deleted');
      await deps.permissions.invalidateUser(id);
    }
    return count;
  }

  return {
    removeMany,

    async checkTarget(actor, id) {
      await target(actor, id);
    },

    async page(actor, query) {
      const page = await repos.users.page(query, await actor.scope());
      const roles = await repos.users.roleIdsOf(page.items.map((u) => u.id));
      return { ...page, items: page.items.map((u) => toUserItem(u, roles.get(u.id) ?? [])) };
    },

    async detail(actor, id) {
      const row = await visibleUser(actor, id);
      const roles = await repos.users.roleIdsOf([id]);
      return toUserItem(row, roles.get(id) ?? []);
    },

    async create(actor, input) {
      const account = normalizeAccountName(input.account);
      if (await repos.users.accountTaken(account)) throw fail(AdminErrorCode.AccountExists);
      await checkPlacement(actor, { ...input, orgId: input.orgId ?? null });
      await checkRoles(actor, { id: 0, orgId: input.orgId ?? null }, input.roleIds ?? [], []);
      const policy = await deps.settings.passwordPolicy();
      if (input.password !== undefined) assertPassword(input.password, policy);
      const password = await initialPassword(input.password);
      const at = now();
      // The database decides in the end: a create racing this one answers 42006 too (unique live account).
      const id = await uniqueOr(
        () =>
          repos.users.insertWithRoles(
            {
              ...profileOf(input),
              account,
              realName: input.realName,
              enabled: input.enabled ?? true,
              password: password.hash,
              lastPasswordChangeTime: at,
              // Read once, at creation (spec "Password policy", rule 3).
              mustChangePassword: policy.forceChangeOnFirstLogin,
              createTime: at,
              createUserId: actor.userId,
            },
            input.roleIds ?? [],
          ),
        () => fail(AdminErrorCode.AccountExists),
      );
      await repos.passwordHistory.add(id, password.hash, policy.historyCount, at);
      return password.generated ? { id, initialPassword: password.plain } : { id };
    },

    async update(actor, id, input) {
      const row = await target(actor, id);
      // A second factor required of an administrator is their superior's call, not theirs to lift (the super
      // admin, whom nobody outranks, decides for themselves).
      if (actor.userId === id && !actor.isSuperAdmin && row.forceTotp && input.forceTotp === false)
        throw fail(AdminErrorCode.CannotOperateSelf, { field: 'forceTotp' });
      await checkPlacement(actor, input, row);
      const current = (await repos.users.roleIdsOf([id])).get(id) ?? [];
      const user = { id, orgId: input.orgId !== undefined ? input.orgId : row.orgId };
      const moved = user.orgId !== row.orgId;
      if (input.roleIds) await checkRoles(actor, user, input.roleIds, current, moved);
      else if (moved) await assertScopeWithin(deps, actor, await repos.roles.scopesOfRoles(current), [user]);
      const updated = await repos.users.update(id, profileOf(input), stamp(actor), input.roleIds);
      if (!updated) throw fail(AdminErrorCode.UserNotFound);
      if (input.roleIds) await deps.permissions.invalidateUser(id);
    },

    async remove(actor, id) {
      await removeMany(actor, [id]);
    },

    async resetPassword(actor, id) {
      await target(actor, id);
      const password = await initialPassword();
      const policy = await deps.settings.passwordPolicy();
      const at = now();
      await repos.users.updatePassword(id, {
        password: password.hash,
        lastPasswordChangeTime: at,
        mustChangePassword: true,
        updateUserId: actor.userId,
        updateTime: at,
      });
      await repos.passwordHistory.add(id, password.hash, policy.historyCount, at);
      // Whoever held the old password is signed out; an admin resetting their own keeps this session.
      const own = actor.principal.kind === 'user' && actor.principal.userId === id;
      await deps.sessions.revokeUserSessions(
        id,
        'password-reset',
        own && actor.principal.kind === 'user' ? { exceptSessionId: actor.principal.sessionId } : undefined,
      );
      return { password: password.plain };
    },

    async setEnabled(actor, id, enabled) {
      const row = await target(actor, id);
      if (!enabled && row.isSuperAdmin) throw fail(AdminErrorCode.SuperAdminProtected);
      if (!enabled && actor.userId === id) throw fail(AdminErrorCode.CannotOperateSelf);
      await repos.users.update(id, { enabled }, stamp(actor));
      if (!enabled) await deps.sessions.revokeUserSessions(id, 'user-disabled');
      await deps.permissions.invalidateUser(id);
    },
  };
}
