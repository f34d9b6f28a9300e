/** Schemas of the import routes (modules.md "Small routes": a row is `{index, cells, errors}`). */
import { z } from '@hono/zod-openapi';
import { ErrorCodeSchema } from '../../../openapi/schemas.js';

export const CellErrorSchema = z
  .object({
    columnKey: z.string(),
    code: ErrorCodeSchema,
    args: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('ImportCellError');

/** A row as the client sends it back (errors it carries are ignored: every row is checked again). */
export const ImportRowInSchema = z
  .object({
    index: z.number().int().min(0).max(10_000_000),
    cells: z.record(z.string().max(64), z.string().max(2000)),
    errors: z.array(CellErrorSchema).max(100).optional(),
  })
  .openapi('ImportRowIn');

export const ImportRowSchema = z
  .object({
    index: z.number().int(),
    cells: z.record(z.string(), z.string()),
    errors: z.array(CellErrorSchema),
  })
  .openapi('ImportRow');

export const ImportColumnSchema = z
  .object({
    key: z.string(),
    header: z.string(),
    required: z.boolean(),
    dict: z.string().optional(),
    max: z.number().int(),
  })
  .openapi('ImportColumn');

/** `{rows}` of validate and error report; the row count is checked by the service (46002, 46003). */
export const ImportRowsBodySchema = z.object({ rows: z.array(ImportRowInSchema) }).strict();

export const XlsxResponse = (description: string) => ({
  description,
  content: {
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
      schema: z.any().openapi({ type: 'string', format: 'binary' }),
    },
  },
});
