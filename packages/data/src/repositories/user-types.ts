/**
 * The value types of a user write, apart from the repository (`users.ts`) so that the import's writer
 * (`users-import.ts`), which the repository calls, names them without importing the repository back.
 */
import type { InferInsertModel } from 'drizzle-orm';
import type { Tables } from '../tables.js';

/** Values for a new user (`id` is generated; audit and flags have defaults). */
export type NewUser = Omit<InferInsertModel<Tables['sysUser']>, 'id'>;

/** Profile fields an administrator (or the user, for a subset) may change. */
export interface UserPatch {
  realName?: string;
  nickName?: string | null;
  orgId?: number | null;
  positionId?: number | null;
  phone?: string | null;
  email?: string | null;
  gender?: number;
  avatar?: string | null;
  forceTotp?: boolean;
  enabled?: boolean;
  remark?: string | null;
  /** Portal module the user lands in. */
  defaultModuleId?: number | null;
}

/** Who wrote and when (audit columns). */
export interface AuditStamp {
  userId: number | null;
  at: Date;
}
