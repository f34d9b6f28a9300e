/**
 * Answers a stored file's bytes: `attachment` with the original name, or `inline` for the safe image/PDF
 * types only; always `X-Content-Type-Options: nosniff`, and a sandboxing CSP so even a mislabelled file
 * cannot run script on this origin.
 */

import type { DataScopeFilter } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import { contentDisposition, INLINE_CONTENT_TYPES, UploadErrorCode } from '@svc/modules';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import type { UploadRouteDeps } from './services.js';

export async function sendFile(
  c: Context<AppEnv>,
  d: Pick<UploadRouteDeps, 'fileRows' | 'files'>,
  id: number,
  mode: 'attachment' | 'view',
  /** The caller's data scope (download); the signed view link carries its own authority and has none. */
  scope?: DataScopeFilter,
): Promise<Response> {
  const row = await d.fileRows.getById(id, scope);
  const opened = row ? await d.files.open(row.storageKey) : undefined;
  if (!row || !opened) throw new BusinessError(UploadErrorCode.FileNotFound, { id });
  const inline = mode === 'view' && INLINE_CONTENT_TYPES.has(row.contentType);
  return new Response(opened.body, {
    status: 200,
    headers: {
      'content-type': inline ? row.contentType : 'application/octet-stream',
      'content-length': String(opened.size),
      'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', row.originalName),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      'cache-control': 'no-store',
      'x-trace-id': c.get('traceId') ?? '',
    },
  });
}
