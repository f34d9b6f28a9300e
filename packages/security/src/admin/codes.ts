/**
 * The error codes of module `Admin` (42xxx). Numbers are part of the public contract: never renumber a member.
 * The set keeps the kernel catalogue's source name (`ErrorCode`), so `GET /api/v1/meta/error-codes` lists them as
 * before; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const admin = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.admin.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

export const AdminErrorCode = defineErrorCodes('ErrorCode', {
  UserNotFound: admin('UserNotFound', 42001),
  RoleNotFound: admin('RoleNotFound', 42002),
  OrgNotFound: admin('OrgNotFound', 42003),
  OrgHasChildren: admin('OrgHasChildren', 42004),
  PositionNotFound: admin('PositionNotFound', 42005),
  AccountExists: admin('AccountExists', 42006),
  SuperAdminProtected: admin('SuperAdminProtected', 42007),
  OrgInvalidParent: admin('OrgInvalidParent', 42008),
  ModuleNotFound: admin('ModuleNotFound', 42011),
  ModuleCodeExists: admin('ModuleCodeExists', 42012),
  ModuleProtected: admin('ModuleProtected', 42013),
  ModuleAccessDenied: admin('ModuleAccessDenied', 42014),
  MenuNotFound: admin('MenuNotFound', 42015),
  MenuHasChildren: admin('MenuHasChildren', 42016),
  RoleCodeExists: admin('RoleCodeExists', 42018),
  PasswordTooWeak: admin('PasswordTooWeak', 42019),
  RecycleNotFound: admin('RecycleNotFound', 42020),
  RecycleUniqueConflict: admin('RecycleUniqueConflict', 42021),
  RecycleInvalidType: admin('RecycleInvalidType', 42022),
  ModuleHasMenus: admin('ModuleHasMenus', 42023),
  SessionNotFound: admin('SessionNotFound', 42024),
  PasswordReused: admin('PasswordReused', 42025),
  OrgHasUsers: admin('OrgHasUsers', 42027),
  CannotOperateSelf: admin('CannotOperateSelf', 42029),
  MenuInvalidParent: admin('MenuInvalidParent', 42030),
  /** A live organisation already holds the code (compared ignoring case). */
  OrgCodeExists: admin('OrgCodeExists', 42031),
});
