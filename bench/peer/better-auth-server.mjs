// The peer of bench/peer.mjs: Better Auth (installed on demand into the folder given as the first argument) on
// the Hono, @hono/node-server and better-sqlite3 the host runs, in its own process on 127.0.0.1 at a free port.
// Email and password sign-in; `GET /ping` answers `{pong, email}` for a live session (`auth.api.getSession`,
// what a protected route of a Better Auth app calls), 401 otherwise. Prints `listening <url>`.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [installDir, databaseFile] = process.argv.slice(2);
const httpRequire = createRequire(new URL('../../packages/http/package.json', import.meta.url));
const dataRequire = createRequire(new URL('../../packages/data/package.json', import.meta.url));
const { Hono } = httpRequire('hono');
const { serve } = httpRequire('@hono/node-server');
const Database = dataRequire('better-sqlite3');
const peerRequire = createRequire(join(installDir, 'package.json'));
const { betterAuth } = await import(pathToFileURL(peerRequire.resolve('better-auth')).href);
const { getMigrations } = await import(pathToFileURL(peerRequire.resolve('better-auth/db/migration')).href);

const database = new Database(databaseFile);
database.pragma('journal_mode = WAL');
const options = {
  database,
  secret: process.env.PEER_SECRET,
  baseURL: 'http://127.0.0.1',
  emailAndPassword: { enabled: true },
  // The benchmark signs in once and then checks sessions; the peer's own rate limit would refuse the load.
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
};
const { runMigrations } = await getMigrations(options);
await runMigrations();
const auth = betterAuth(options);

const app = new Hono();
app.on(['GET', 'POST'], '/api/auth/*', (c) => auth.handler(c.req.raw));
app.get('/ping', async (c) => {
  const session = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!session) return c.json({ error: 'unauthorized' }, 401);
  return c.json({ pong: true, email: session.user.email, at: new Date().toISOString() });
});
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(`listening http://127.0.0.1:${info.port}`);
});
process.once('SIGTERM', () => process.exit(0));
