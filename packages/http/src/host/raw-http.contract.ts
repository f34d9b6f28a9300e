/**
 * Test support (not shipped: `*.contract.ts` is outside the build): a raw HTTP/1.1 connection over node:net, so
 * tests see exactly what goes over the wire — keep-alive reuse, `Connection: close`, the server closing the
 * socket, resets — without a client library retrying or hiding any of it.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case names (a repeated header shows its last value). */
  headers: Record<string, string>;
  /** The header lines as sent, in order. */
  lines: string[];
  body: string;
}

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  /** Socket errors seen (a reset shows here). */
  readonly errors: Error[] = [];
  /** True once the server ended or closed the socket. */
  closedByPeer = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('error', (error) => {
      this.errors.push(error);
      this.wake();
    });
    socket.on('end', () => {
      this.closedByPeer = true;
      this.wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closedByPeer = true;
        this.wake();
        resolve();
      }),
    );
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () =>
        resolve(new RawConnection(socket)),
      );
      socket.once('error', reject);
    });
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  private async more(): Promise<void> {
    if (this.closedByPeer || this.socket.destroyed) throw new Error('connection closed by the server');
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Writes raw bytes; resolves when they are handed to the kernel. */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.write(data, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Sends a request with a `Content-Length` body (keep-alive unless a header says otherwise). */
  request(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body: string | Buffer = '',
  ): Promise<void> {
    const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost'];
    const all: Record<string, string> = { ...headers };
    if (body.length > 0 || method !== 'GET') all['Content-Length'] ??= String(Buffer.byteLength(body));
    for (const [name, value] of Object.entries(all)) lines.push(`${name}: ${value}`);
    return this.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), Buffer.from(body)]));
  }

  /** Reads one response (Content-Length or chunked body). */
  async response(): Promise<RawResponse> {
    let end = this.buffer.indexOf('\r\n\r\n');
    while (end < 0) {
      await this.more();
      end = this.buffer.indexOf('\r\n\r\n');
    }
    const [statusLine = '', ...headerLines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const at = line.indexOf(':');
      headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    let rest = this.buffer.subarray(end + 4);
    let body: Buffer;
    if (headers['transfer-encoding']?.includes('chunked')) {
      const parts: Buffer[] = [];
      for (;;) {
        let lineEnd = rest.indexOf('\r\n');
        while (lineEnd < 0) {
          this.buffer = rest;
          await this.more();
          rest = this.buffer;
          lineEnd = rest.indexOf('\r\n');
        }
        const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        while (rest.length < lineEnd + 2 + size + 2) {
          this.buffer = rest;
          await this.more();
          rest = this.buffer;
        }
        parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        rest = rest.subarray(lineEnd + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      while (rest.length < length) {
        this.buffer = rest;
        await this.more();
        rest = this.buffer;
      }
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    this.buffer = rest;
    return { status, headers, lines: headerLines, body: body.toString('utf8') };
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * Requests a test holds in flight without a clock: a route awaits `pass()`, which counts it (`entered`) and waits
 * until the test calls `open()`; `until(condition)` waits turn by turn for the count the test needs.
 */
export interface HeldGate {
  readonly entered: number;
  pass(): Promise<void>;
  open(): void;
  until(condition: (entered: number) => boolean): Promise<void>;
}

export function heldGate(): HeldGate {
  let entered = 0;
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    get entered() {
      return entered;
    },
    async pass() {
      entered++;
      await gate;
    },
    open: () => open(),
    async until(condition) {
      while (!condition(entered)) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
