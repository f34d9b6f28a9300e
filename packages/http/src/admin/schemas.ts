/**
 * Schemas shared by the administration routes: path ids, pages, the row shapes of contract §5, and the
 * bounded field types of write bodies (every write body is `.strict()`: unknown properties are refused).
 */
import { z } from '@hono/zod-openapi';
import { isPhoneNumber } from '@svc/kernel';
import { idPath, pageSchema } from '../openapi/query.js';

export const dateTime = z.string().openapi({ format: 'date-time' });

/** `{id}` in a path: a positive integer (anything else answers 48000 naming `id`). */
export const IdParamSchema = z.object({ id: idPath });

/** A list of ids in a body (batch delete, menu grants, members). */
export const IdListSchema = z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(1000);

/** The page envelope of contract §3. */
export const pageOf = pageSchema;

/** `{id}` of a created row. */
export const CreatedSchema = z.object({ id: z.number().int() });

// Field types of write bodies, bounded by the column widths.
export const name64 = z.string().trim().min(1).max(64);
export const code64 = z.string().trim().min(1).max(64).regex(/^\S+$/, 'must not contain spaces');
export const optText = (max: number) => z.string().max(max).nullable().optional();
/** A stored phone number (contract §11, `PHONE_NUMBER_PATTERN`); empty or null for none. */
export const optPhone = z
  .string()
  .max(20)
  .refine((v) => v === '' || isPhoneNumber(v), {
    message: '5-20 digits with an optional leading + and inner spaces or dashes.',
  })
  .nullable()
  .optional();
export const sortSchema = z.number().int().min(-1_000_000).max(1_000_000);
export const refId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const UserItemSchema = z
  .object({
    id: z.number().int(),
    account: z.string(),
    realName: z.string(),
    nickName: z.string().nullable(),
    orgId: z.number().int().nullable(),
    positionId: z.number().int().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    gender: z.number().int(),
    avatar: z.string().nullable(),
    enabled: z.boolean(),
    isSuperAdmin: z.boolean(),
    mustChangePassword: z.boolean(),
    forceTotp: z.boolean(),
    totpBound: z.boolean(),
    roleIds: z.array(z.number().int()),
    remark: z.string().nullable(),
    lastLoginTime: dateTime.nullable(),
    createTime: dateTime,
    updateTime: dateTime.nullable(),
  })
  .openapi('UserItem');

export const RoleItemSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string(),
    dataScope: z
      .number()
      .int()
      .openapi({ description: '1 All, 2 own Org, 3 Org and children, 4 Self, 5 Custom.' }),
    sort: z.number().int(),
    enabled: z.boolean(),
    remark: z.string().nullable(),
    createTime: dateTime,
    updateTime: dateTime.nullable(),
  })
  .openapi('RoleItem');

export const MenuTypeSchema = z.enum(['catalog', 'menu', 'button']);

const menuFields = {
  id: z.number().int(),
  parentId: z.number().int(),
  type: MenuTypeSchema,
  title: z.string(),
  permission: z.string().nullable().openapi({ description: 'Permission codes joined by `;`.' }),
  path: z.string().nullable(),
  component: z.string().nullable(),
  icon: z.string().nullable(),
  sort: z.number().int(),
  enabled: z.boolean(),
  hidden: z.boolean(),
  moduleId: z.number().int().nullable().openapi({ description: 'Portal module of a top-level menu.' }),
  remark: z.string().nullable(),
};

/** A menu tree node. */
export interface MenuNodeShape {
  id: number;
  parentId: number;
  type: 'catalog' | 'menu' | 'button';
  title: string;
  permission: string | null;
  path: string | null;
  component: string | null;
  icon: string | null;
  sort: number;
  enabled: boolean;
  hidden: boolean;
  moduleId: number | null;
  remark: string | null;
  children: MenuNodeShape[];
}

export const MenuNodeSchema: z.ZodType<MenuNodeShape> = z
  .object({
    ...menuFields,
    get children(): z.ZodArray<z.ZodType<MenuNodeShape>> {
      return z.array(MenuNodeSchema);
    },
  })
  .openapi('MenuNode');

export const OrgItemSchema = z
  .object({
    id: z.number().int(),
    parentId: z.number().int(),
    name: z.string(),
    code: z.string(),
    sort: z.number().int(),
    enabled: z.boolean(),
    leader: z.string().nullable(),
    phone: z.string().nullable(),
    remark: z.string().nullable(),
    createTime: dateTime,
    updateTime: dateTime.nullable(),
  })
  .openapi('OrgItem');

export const PositionItemSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string(),
    sort: z.number().int(),
    enabled: z.boolean(),
    remark: z.string().nullable(),
    createTime: dateTime,
    updateTime: dateTime.nullable(),
  })
  .openapi('PositionItem');

export const OnlineSessionSchema = z
  .object({
    sessionId: z.string(),
    userId: z.number().int(),
    account: z.string(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    loginTime: dateTime,
    lastActivityTime: dateTime,
    expiresAt: dateTime.nullable(),
  })
  .openapi('OnlineSession');

export const RecycleItemSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    subtitle: z.string().nullable(),
    deleteTime: dateTime.nullable(),
    deleteUserId: z.number().int().nullable(),
  })
  .openapi('RecycleItem');

/** Editable user fields shared by create and update. */
export const userFieldsShape = {
  realName: name64,
  nickName: optText(64),
  orgId: refId.nullable().optional(),
  positionId: refId.nullable().optional(),
  phone: optPhone,
  email: z.string().max(128).email().nullable().optional(),
  gender: z.number().int().min(0).max(9).optional(),
  avatar: optText(500),
  forceTotp: z.boolean().optional(),
  remark: optText(500),
  roleIds: IdListSchema.optional().openapi({ description: 'Replaces the user’s roles when given.' }),
};
