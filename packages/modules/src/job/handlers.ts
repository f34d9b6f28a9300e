/**
 * Handler kinds: compiled (registered in code by the consumer), HTTP (props `{url, method, headers, body}`,
 * through the outbound fence) and SQL (props `{sql}`, off unless `Service:Jobs:AllowSqlJobs`; one statement,
 * stopped on the server at the job's timeout where the dialect can, its failure shown by the database's message
 * alone).
 */

import type { JobRepository, SysJobRow } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { MASK, maskSensitive, nothingToMask } from '@svc/logging';
import { z } from 'zod';
import { JobErrorCode } from './codes.js';
import type { HandlerResolver } from './engine.js';
import { checkTarget, fencedFetch, type Resolve } from './fence.js';
import { HARMLESS_HEADERS } from './secrets.js';
import type { JobHandler, JobHandlerEntry } from './types.js';

/** RFC 9110 `token`. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Latin-1 text (what fetch sends as a header's bytes), without CR, LF or NUL. */
const HEADER_VALUE = /^[^\r\n\0\u0100-\uffff]*$/;

export const HttpPropsSchema = z
  .object({
    url: z.string().url().max(2000),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
    // Names as HTTP's tokens, values without CR, LF or NUL: what fetch would refuse at every run is refused when
    // the job is saved.
    headers: z
      .record(
        z.string().regex(HEADER_NAME, 'not a header name'),
        z.string().max(4000).regex(HEADER_VALUE, 'a header value is Latin-1 text without CR, LF or NUL'),
      )
      .optional(),
    body: z.string().max(65_536).optional(),
  })
  .strict();

export const SqlPropsSchema = z.object({ sql: z.string().trim().min(1).max(65_536) }).strict();

export interface HandlerPolicy {
  allowPrivateHttpTargets: () => boolean;
  allowSqlJobs: () => boolean;
  jobs: JobRepository;
  /** DNS lookup (tests point a name at loopback). */
  resolve?: Resolve | undefined;
}

const paramInvalid = (path: string, message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path, message }] });

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw paramInvalid('propsJson', 'not valid JSON');
  }
}

/**
 * Checks a job's handler at write time: 47005 for an unknown compiled handler, 47008 for SQL when off, 47009 for
 * an HTTP target behind the fence, 48000 for bad props.
 */
export async function validateHandler(
  job: Pick<SysJobRow, 'handlerKind' | 'handlerName' | 'propsJson'>,
  compiled: ReadonlyMap<string, JobHandlerEntry>,
  policy: HandlerPolicy,
): Promise<void> {
  if (job.handlerKind === 1) {
    if (!compiled.has(job.handlerName))
      throw new BusinessError(JobErrorCode.JobHandlerNotFound, { handlerName: job.handlerName });
    return;
  }
  if (job.handlerKind === 3) {
    if (!policy.allowSqlJobs()) throw new BusinessError(JobErrorCode.JobSqlDisabled);
    if (!SqlPropsSchema.safeParse(parseJson(job.propsJson)).success)
      throw paramInvalid('propsJson', 'expected {"sql": "..."}');
    return;
  }
  const props = HttpPropsSchema.safeParse(parseJson(job.propsJson));
  if (!props.success) throw paramInvalid('propsJson', 'expected {"url", "method"?, "headers"?, "body"?}');
  await checkTarget(new URL(props.data.url), {
    allowPrivate: policy.allowPrivateHttpTargets(),
    ...(policy.resolve ? { resolve: policy.resolve } : {}),
  });
}

/** The handler that runs a job's attempt. */
export function createHandlerResolver(policy: HandlerPolicy): HandlerResolver {
  return (job, compiled) => {
    if (job.handlerKind === 1) {
      const entry = compiled.get(job.handlerName);
      if (!entry) throw new BusinessError(JobErrorCode.JobHandlerNotFound, { handlerName: job.handlerName });
      return entry.handler;
    }
    if (job.handlerKind === 3) return sqlHandler(policy);
    return httpHandler(policy);
  };
}

function httpHandler(policy: HandlerPolicy): JobHandler {
  return async (ctx) => {
    const props = HttpPropsSchema.parse(ctx.props);
    const res = await fencedFetch({
      url: props.url,
      method: props.method,
      headers: props.headers,
      body: props.body,
      allowPrivate: policy.allowPrivateHttpTargets(),
      signal: ctx.signal,
      ...(policy.resolve ? { resolve: policy.resolve } : {}),
    });
    const summary = `HTTP ${res.status}: ${runLogBody(
      res.body,
      Object.entries(props.headers ?? {}).flatMap(([n, v]) =>
        HARMLESS_HEADERS.has(n.toLowerCase()) ? [] : [v],
      ),
    )}`;
    if (res.status >= 400) throw new Error(summary);
    return summary;
  };
}

/** What the run log keeps of a response body (contract §11). @default 1 KiB */
export const RUN_LOG_BODY_BYTES = 1024;

/**
 * A response body as the run log keeps it: masked by the op log's rules (a JSON body by property name, URL
 * passwords anywhere; a text that is not JSON yet names a secret is not kept), the job's own header values
 * replaced by `***` wherever the target echoes them, then cut to its first {@link RUN_LOG_BODY_BYTES} bytes.
 */
export function runLogBody(body: string, sent: readonly string[]): string {
  let text: string;
  if (nothingToMask(body)) text = body;
  else {
    try {
      text = JSON.stringify(maskSensitive(JSON.parse(body)));
    } catch {
      text = '[not kept: the body is not JSON and names a secret]';
    }
  }
  for (const value of sent) if (value.length >= 4) text = text.replaceAll(value, MASK);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= RUN_LOG_BODY_BYTES) return text;
  // Cut on a character boundary: a UTF-8 continuation byte (10xxxxxx) is never where a character starts.
  let end = RUN_LOG_BODY_BYTES;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}…`;
}

function sqlHandler(policy: HandlerPolicy): JobHandler {
  return async (ctx) => {
    if (!policy.allowSqlJobs()) throw new BusinessError(JobErrorCode.JobSqlDisabled);
    const props = SqlPropsSchema.parse(ctx.props);
    let affected: number;
    try {
      affected = await policy.jobs.executeSql(props.sql, {
        timeoutMs: ctx.job.timeoutSeconds > 0 ? ctx.job.timeoutSeconds * 1000 : undefined,
        signal: ctx.signal,
      });
    } catch (error) {
      throw new Error(databaseMessage(error));
    }
    return `statement done (${affected} rows affected)`;
  };
}

/**
 * The database's own words for a failed statement: the innermost cause (drizzle wraps the driver's error in one
 * that repeats the statement), without the stack, whose frames name server paths.
 */
function databaseMessage(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner instanceof Error ? inner.message : String(inner);
}
