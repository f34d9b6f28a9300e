/**
 * Serving and graceful shutdown (contract §1): on SIGTERM/SIGINT stop accepting, finish in-flight requests
 * (up to `Service:Shutdown:DrainSeconds`), drain background work, close pools, exit 0.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from '@svc/kernel';
import type { SvcServer } from './create-server.js';
import { StartupError } from './startup-error.js';

export interface ListeningServer {
  /** The address actually bound (port 0 resolves to a free port). */
  url: string;
  /** Stops accepting, waits for in-flight requests up to the drain time, then closes the service. */
  shutdown(): Promise<void>;
}

/** Parses a listen URL (`http://host:port`). */
export function parseListenUrl(url: string): { hostname: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url.replace('://*', '://0.0.0.0').replace('://+', '://0.0.0.0'));
  } catch {
    throw new StartupError(
      `ASPNETCORE_URLS/PORT gives "${url}", which is not a URL like http://localhost:5100.`,
    );
  }
  if (parsed.protocol !== 'http:') {
    throw new StartupError(`Only http:// listen URLs are served (terminate TLS at a proxy); got "${url}".`);
  }
  const port = parsed.port === '' ? 80 : Number(parsed.port);
  return { hostname: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}

/** Starts listening on the configured URL. */
export function listen(server: SvcServer, logger: Logger, urlOverride?: string): Promise<ListeningServer> {
  const { hostname, port } = parseListenUrl(urlOverride ?? server.config.environment.url);
  const drainMs = server.config.service.Shutdown.DrainSeconds * 1000;
  return new Promise((resolve, reject) => {
    const http = serve({ fetch: server.app.fetch, hostname, port }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      const shown = hostname === 'localhost' ? 'localhost' : host;
      const url = `http://${shown}:${info.port}`;
      logger.info(`Now listening on: ${url}`);
      let stopping: Promise<void> | undefined;
      resolve({
        url,
        shutdown() {
          stopping ??= (async () => {
            logger.info('Shutting down: no new connections, finishing in-flight requests.');
            const closed = new Promise<void>((done) => http.close(() => done()));
            if ('closeIdleConnections' in http) http.closeIdleConnections();
            const timer = setTimeout(() => {
              if ('closeAllConnections' in http) http.closeAllConnections();
            }, drainMs);
            await closed;
            clearTimeout(timer);
            await server.close();
            logger.info('Stopped.');
          })();
          return stopping;
        },
      });
    });
    http.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(
              `${hostname}:${port} is already in use; set ASPNETCORE_URLS or PORT to another address.`,
            )
          : error,
      );
    });
  });
}
