/**
 * A WebSocket client for hub tests (the `ws` package; Node 20 has no global WebSocket): messages are queued in
 * arrival order and awaited as events, never slept for.
 */
import WebSocket from 'ws';
import type { SvcServer } from '../../host/create-server.js';
import type { RealtimeHub } from './hub.js';
import { realtimeModule } from './index.js';

export interface HubMessage {
  type: string;
  data: unknown;
}

export interface HubClient {
  ws: WebSocket;
  /** The next message not yet taken, in arrival order. */
  next(): Promise<HubMessage>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export interface ConnectOptions {
  token?: string;
  /** Send the token as `?access_token=` instead of the Authorization header. */
  inQuery?: boolean;
  /** Extra query (e.g. `resume=1`). */
  query?: string;
  /** `false`: do not answer pings (a dead client). */
  autoPong?: boolean;
  /** Subprotocols offered (`Sec-WebSocket-Protocol`). */
  protocols?: string[];
}

/** Thrown when the upgrade is refused: the HTTP status and body of the refusal. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body = '',
  ) {
    super(`upgrade refused: ${status}`);
  }
}

/** The hub URL of a listening server (`http://127.0.0.1:port`). */
export function hubUrl(base: string, options: ConnectOptions = {}): string {
  const params = new URLSearchParams();
  if (options.token && options.inQuery) params.set('access_token', options.token);
  if (options.query) for (const [k, v] of new URLSearchParams(options.query)) params.set(k, v);
  const qs = params.toString();
  return `${base.replace(/^http/, 'ws')}/hub/realtime${qs ? `?${qs}` : ''}`;
}

/** Opens a hub connection; rejects with {@link Refused} when the server answers the upgrade with an error. */
export function connectHub(base: string, options: ConnectOptions = {}): Promise<HubClient> {
  const headers: Record<string, string> = {};
  if (options.token && !options.inQuery) headers.authorization = `Bearer ${options.token}`;
  const ws = new WebSocket(hubUrl(base, options), options.protocols ?? [], {
    headers,
    autoPong: options.autoPong ?? true,
  });
  const inbox: HubMessage[] = [];
  const waiters: ((m: HubMessage) => void)[] = [];
  ws.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as HubMessage;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.once('end', () => {
        reject(new Refused(res.statusCode ?? 0, body));
        ws.terminate();
      });
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        closed,
        close: () => ws.close(),
        next() {
          const queued = inbox.shift();
          if (queued) return Promise.resolve(queued);
          return new Promise<HubMessage>((done, fail) => {
            waiters.push(done);
            void closed.then(({ code }) => fail(new Error(`closed (${code}) while waiting for a message`)));
          });
        },
      }),
    );
  });
}

/** The HTTP status an upgrade is refused with (fails when it is accepted). */
export async function refusal(base: string, options: ConnectOptions = {}): Promise<number> {
  return (await refusalOf(base, options)).status;
}

/** The refusal of an upgrade, status and body (fails when it is accepted). */
export async function refusalOf(base: string, options: ConnectOptions = {}): Promise<Refused> {
  try {
    const client = await connectHub(base, options);
    client.close();
  } catch (error) {
    if (error instanceof Refused) return error;
    throw error;
  }
  throw new Error('the upgrade was accepted');
}

/** The hub of a test server: module `Realtime`'s, undefined while the module is off. */
export function hubOf(server: Pick<SvcServer, 'modules'>): RealtimeHub | undefined {
  return server.modules.servicesIfOn(realtimeModule)?.hub;
}
