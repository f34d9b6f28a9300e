/**
 * `POST /api/v1/sys/user/import/commit` `{rows, strategy, initialPassword?}`: writes the rows in one transaction
 * when every row passes, else nothing, with the failures per row (see excel/users-import.ts). `initialPassword`
 * is used when `Service:Security:DefaultInitialPassword` is unset (contract §11; 46014 without either).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { ImportStrategyValue } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { type ImportRouteDeps, importActorOf, importRowsPolicy } from '../services.js';
import { CellErrorSchema, ImportRowInSchema } from './schemas.js';

export const ImportCommitPath = '/api/v1/sys/user/import/commit';

export const route = createRoute({
  method: 'post',
  path: ImportCommitPath,
  tags: ['Import'],
  summary: 'Commit a user import',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z
            .object({
              rows: z.array(ImportRowInSchema),
              strategy: z
                .union([z.literal(0), z.literal(1), z.literal(2)])
                .openapi({ description: 'An existing account: 0 Skip, 1 Overwrite, 2 Error.' }),
              initialPassword: z.string().min(1).max(128).optional().openapi({
                description:
                  'The created accounts’ initial password when Service:Security:DefaultInitialPassword is unset (checked by the password policy, 42019); 46014 without either.',
              }),
            })
            .strict(),
        },
      },
    },
  },
  responses: envelopeResponses(
    z
      .object({
        total: z.number().int(),
        inserted: z.number().int(),
        updated: z.number().int(),
        skipped: z.number().int(),
        failed: z.number().int(),
        failures: z.array(z.object({ index: z.number().int(), errors: z.array(CellErrorSchema) })),
      })
      .openapi('ImportCommitResult'),
  ),
});

export function register(
  ctx: RegisterContext,
  d: Pick<ImportRouteDeps, 'admin' | 'imports' | 'maxBodyBytes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, ...importRowsPolicy(d) }, async (c) => {
    const body = c.req.valid('json');
    const result = await d.imports.commit(
      importActorOf(c, d),
      body.rows,
      body.strategy as ImportStrategyValue,
      { initialPassword: body.initialPassword },
    );
    return c.json(ok(result), 200);
  });
}
