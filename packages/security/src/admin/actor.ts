/**
 * The caller of an administration service: who acts (for audit columns), whether they are the super admin,
 * and — resolved lazily, at most once per request — their permission codes and data scope. Escalation rules
 * live here: nobody but the super admin can hand out a code they do not hold themselves.
 */
import type { DataScopeFilter } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { PermissionResolver } from '../auth/contracts.js';
import type { Principal } from '../auth/principal.js';
import type { DataScopeResolver } from './data-scope.js';

/** One caller of the administration services, built per request. */
export interface AdminActor {
  readonly principal: Principal;
  /** The acting user (audit columns, self-protection); null for an API key bound to no user. */
  readonly userId: number | null;
  /** True only for a bearer session of the super admin (the `sadm` claim). */
  readonly isSuperAdmin: boolean;
  /** The caller's permission codes (empty for an unbound key). */
  codes(): Promise<ReadonlySet<string>>;
  /** The caller's data scope (empty when unresolved: fail closed). */
  scope(): Promise<DataScopeFilter>;
}

/** Builds actors from principals. */
export type AdminActorFactory = (principal: Principal) => AdminActor;

/** Dependencies of {@link createAdminActorFactory}. */
export interface AdminActorDeps {
  permissions: PermissionResolver;
  scopes: DataScopeResolver;
}

const NO_CODES: ReadonlySet<string> = new Set();

/**
 * Creates the actor factory.
 * @example const actorOf = createAdminActorFactory({ permissions, scopes }); const actor = actorOf(principal);
 */
export function createAdminActorFactory(deps: AdminActorDeps): AdminActorFactory {
  return (principal) => {
    const userId = principal.userId;
    let codes: Promise<ReadonlySet<string>> | undefined;
    let scope: Promise<DataScopeFilter> | undefined;
    return {
      principal,
      userId,
      isSuperAdmin: principal.kind === 'user' && principal.isSuperAdmin,
      codes() {
        codes ??= userId === null ? Promise.resolve(NO_CODES) : deps.permissions.codesOf(userId);
        return codes;
      },
      scope() {
        scope ??= deps.scopes.forPrincipal(principal);
        return scope;
      },
    };
  };
}

/**
 * Refuses (41001 with `args.codes`, the codes lacking) when a caller other than the super admin would hand out
 * codes they do not hold: granting menus to a role, assigning a role, enabling or restoring one, or adding
 * codes to a menu that is already granted.
 */
export function assertCanGrant(actor: AdminActor, codes: Iterable<string>): Promise<void> {
  return assertHolds(actor, codes);
}

/** Refuses (41001 with `args.codes`, the codes lacking) a caller other than the super admin without every code. */
export async function assertHolds(actor: AdminActor, codes: Iterable<string>): Promise<void> {
  if (actor.isSuperAdmin) return;
  const held = await actor.codes();
  const lacking = [...new Set(codes)].filter((code) => !held.has(code)).sort();
  if (lacking.length > 0) throw new BusinessError(ErrorCode.NoPermission, { codes: lacking });
}
