/**
 * Binary downloads through the typed client (openapi-fetch with `parseAs: 'blob'`) against a fake server: the
 * bytes and the file name of `Content-Disposition`, and the catalog error of a failure envelope, whether it
 * comes with an error status or (defensively) as a JSON body of a 200.
 */
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { downloadOf, fileNameOf } from './download.js';
import { ApiError, CLIENT_ERROR } from './envelope.js';
import type { paths } from './schema.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);

function clientAnswering(answer: () => Response) {
  const seen: string[] = [];
  const client = createClient<paths>({
    baseUrl: 'http://console.test',
    fetch: async (request: Request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return answer();
    },
  });
  return { client, seen };
}

describe('fileNameOf', () => {
  it('prefers the UTF-8 filename* over the plain filename', () => {
    expect(
      fileNameOf(`attachment; filename="users.xlsx"; filename*=UTF-8''%E7%94%A8%E6%88%B7.xlsx`, 'x.xlsx'),
    ).toBe('用户.xlsx');
  });

  it('reads quoted and bare filenames', () => {
    expect(fileNameOf('attachment; filename="op-log.xlsx"', 'x')).toBe('op-log.xlsx');
    expect(fileNameOf('attachment; filename=report.xlsx; size=3', 'x')).toBe('report.xlsx');
    expect(fileNameOf('attachment; filename="a \\"b\\".xlsx"', 'x')).toBe('a "b".xlsx');
  });

  it('falls back without a header or a name, and never keeps a path', () => {
    expect(fileNameOf(null, 'fallback.xlsx')).toBe('fallback.xlsx');
    expect(fileNameOf('attachment', 'fallback.xlsx')).toBe('fallback.xlsx');
    expect(fileNameOf(`attachment; filename*=UTF-8''%E0%A4%A`, 'fallback.xlsx')).toBe('fallback.xlsx');
    expect(fileNameOf('attachment; filename="../../etc/passwd"', 'x')).toBe('.._.._etc_passwd');
  });
});

describe('downloadOf', () => {
  it('answers the bytes and the server file name of a workbook', async () => {
    const { client, seen } = clientAnswering(
      () =>
        new Response(bytes, {
          status: 200,
          headers: {
            'Content-Type': XLSX,
            'Content-Disposition': `attachment; filename="users.xlsx"; filename*=UTF-8''users.xlsx`,
          },
        }),
    );
    const result = await client.GET('/api/v1/sys/user/export', {
      params: { query: { account: 'ann', columns: 'account,realName' } },
      parseAs: 'blob',
    });
    const download = await downloadOf(result, 'export.xlsx');
    expect(download.fileName).toBe('users.xlsx');
    expect(new Uint8Array(await download.blob.arrayBuffer())).toEqual(bytes);
    expect(seen).toEqual(['GET /api/v1/sys/user/export?account=ann&columns=account%2CrealName']);
  });

  it('uses the fallback name when the server sends none', async () => {
    const { client } = clientAnswering(
      () => new Response(bytes, { status: 200, headers: { 'Content-Type': XLSX } }),
    );
    const result = await client.GET('/api/v1/sys/user/import/template', { parseAs: 'blob' });
    expect((await downloadOf(result, 'template.xlsx')).fileName).toBe('template.xlsx');
  });

  it('throws the catalog error of a failure envelope with an error status', async () => {
    const { client } = clientAnswering(
      () =>
        new Response(
          JSON.stringify({
            code: 46013,
            msgKey: 'error.excel.exportColumnInvalid',
            data: null,
            args: { columns: ['nope'] },
          }),
          { status: 400, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    const result = await client.GET('/api/v1/sys/log/op/export', {
      params: { query: { columns: 'nope' } },
      parseAs: 'blob',
    });
    const error = await downloadOf(result, 'x.xlsx').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 46013,
      msgKey: 'error.excel.exportColumnInvalid',
      args: { columns: ['nope'] },
      status: 400,
    });
  });

  it('throws the envelope of a JSON answer that came with a success status', async () => {
    const { client } = clientAnswering(
      () =>
        new Response(
          JSON.stringify({ code: 46012, msgKey: 'error.excel.exportRowLimitExceeded', data: null }),
          {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          },
        ),
    );
    const result = await client.GET('/api/v1/sys/user/export', { parseAs: 'blob' });
    await expect(downloadOf(result, 'x.xlsx')).rejects.toMatchObject({ code: 46012 });
  });

  it('answers a network error for a failure that is not an envelope', async () => {
    const { client } = clientAnswering(() => new Response('<html>bad gateway</html>', { status: 502 }));
    const result = await client.GET('/api/v1/sys/user/export', { parseAs: 'blob' });
    await expect(downloadOf(result, 'x.xlsx')).rejects.toMatchObject({
      code: CLIENT_ERROR.Network,
      status: 502,
    });
  });
});
