/**
 * Binary answers (workbooks, reports) through the typed client: call the route with `parseAs: 'blob'`, hand the
 * result to `downloadOf` (the bytes and the file name of `Content-Disposition`, or the `ApiError` of a failure
 * envelope), then `saveDownload` gives the file to the browser.
 */
import { ApiError, CLIENT_ERROR, isEnvelope, unwrap } from './envelope.js';

export interface Download {
  blob: Blob;
  fileName: string;
}

/** What openapi-fetch answers for a call made with `parseAs: 'blob'`. */
export interface BlobResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The file name of a `Content-Disposition` header: `filename*` (RFC 5987, UTF-8) first, then `filename`
 * (quoted or not); `fallback` when there is none. Path separators are dropped: the name is only a suggestion.
 */
export function fileNameOf(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
  if (extended) {
    const value = extended.replace(/^"(.*)"$/, '$1');
    const quote = value.indexOf("''");
    try {
      name = decodeURIComponent(quote >= 0 ? value.slice(quote + 2) : value);
    } catch {
      name = undefined;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
    name = plain?.[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain?.[1]?.trim();
  }
  const safe = name?.replace(/[/\\]/g, '_').trim();
  return safe ? safe : fallback;
}

/**
 * The download of a blob call, or the `ApiError` of its failure: an error status carries the envelope (openapi-
 * fetch parsed it), and a success whose body is JSON is an envelope too (a workbook is never JSON).
 */
export async function downloadOf(result: BlobResult, fallback: string): Promise<Download> {
  if (!result.response.ok || result.error !== undefined) unwrap({ ...result, data: undefined });
  const blob = result.data;
  if (!(blob instanceof Blob))
    throw new ApiError(CLIENT_ERROR.Network, 'error.client.network', {}, result.response.status);
  const type = result.response.headers.get('Content-Type') ?? blob.type;
  if (/\bjson\b/i.test(type)) {
    let body: unknown;
    try {
      body = JSON.parse(await blob.text());
    } catch {
      body = undefined;
    }
    if (isEnvelope(body)) unwrap({ data: body, response: result.response });
    throw new ApiError(CLIENT_ERROR.Network, 'error.client.network', {}, result.response.status);
  }
  return { blob, fileName: fileNameOf(result.response.headers.get('Content-Disposition'), fallback) };
}

/** Gives the file to the browser (a temporary object URL on a `download` link). */
export function saveDownload(download: Download): void {
  const url = URL.createObjectURL(download.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = download.fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has handed the URL to the download manager; free it once the current task is done.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
