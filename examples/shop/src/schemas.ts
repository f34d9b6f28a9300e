/**
 * Request and answer schemas of the shop's routes. Write bodies are `.strict()` (an unknown property answers
 * 48000) and bounded by the column widths; answers carry instants as ISO strings, never the soft-delete flag.
 */
import { boolParam, idParam, pageQuerySchema, pageSchema, textParam, z } from '@svc/server/http';
import type { CategoryRow, ProductRow } from './tables/index.js';

const dateTime = z.string().openapi({ format: 'date-time' });
const name = (max: number) => z.string().trim().min(1).max(max);
const code = z.string().trim().min(1).max(64).regex(/^\S+$/, 'must not contain spaces');
const remark = z.string().max(500).nullable().optional();
const refId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const CreatedSchema = z.object({ id: z.number().int() });

export const CategorySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string(),
    sort: z.number().int(),
    remark: z.string().nullable(),
    createTime: dateTime,
    updateTime: dateTime.nullable(),
  })
  .openapi('ShopCategory');

export const CategoryPageSchema = pageSchema(CategorySchema);

export const CategoryPageQuery = pageQuerySchema({
  name: textParam.optional(),
  code: textParam.optional(),
});

const categoryFields = {
  name: name(64),
  code,
  sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  remark,
};

export const CreateCategorySchema = z.object(categoryFields).strict().openapi('CreateShopCategory');
export const UpdateCategorySchema = z
  .object({ ...categoryFields, name: name(64).optional(), code: code.optional() })
  .strict()
  .openapi('UpdateShopCategory');

export const ProductSchema = z
  .object({
    id: z.number().int(),
    categoryId: z.number().int(),
    orgId: z.number().int(),
    name: z.string(),
    code: z.string(),
    priceCents: z.number().int().openapi({ description: 'Price in the smallest currency unit.' }),
    stock: z.number().int(),
    enabled: z.boolean(),
    remark: z.string().nullable(),
    createUserId: z.number().int().nullable(),
    createTime: dateTime,
    updateTime: dateTime.nullable(),
  })
  .openapi('ShopProduct');

export const ProductPageSchema = pageSchema(ProductSchema);

export const ProductPageQuery = pageQuerySchema({
  name: textParam.optional(),
  code: textParam.optional(),
  categoryId: idParam.optional(),
  orgId: idParam.optional(),
  enabled: boolParam.optional().openapi({ type: 'boolean' }),
});

const productFields = {
  categoryId: refId,
  orgId: refId,
  name: name(128),
  code,
  priceCents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  stock: z.number().int().min(0).max(2_147_483_647).optional(),
  enabled: z.boolean().optional(),
  remark,
};

export const CreateProductSchema = z.object(productFields).strict().openapi('CreateShopProduct');
export const UpdateProductSchema = z
  .object({
    ...productFields,
    categoryId: refId.optional(),
    orgId: refId.optional(),
    name: name(128).optional(),
    code: code.optional(),
  })
  .strict()
  .openapi('UpdateShopProduct');

export const categoryItem = (row: CategoryRow): z.infer<typeof CategorySchema> => ({
  id: row.id,
  name: row.name,
  code: row.code,
  sort: row.sort,
  remark: row.remark,
  createTime: row.createTime.toISOString(),
  updateTime: row.updateTime?.toISOString() ?? null,
});

export const productItem = (row: ProductRow): z.infer<typeof ProductSchema> => ({
  id: row.id,
  categoryId: row.categoryId,
  orgId: row.orgId,
  name: row.name,
  code: row.code,
  priceCents: row.priceCents,
  stock: row.stock,
  enabled: row.enabled,
  remark: row.remark,
  createUserId: row.createUserId,
  createTime: row.createTime.toISOString(),
  updateTime: row.updateTime?.toISOString() ?? null,
});
