/**
 * The reference host: the whole service on its embedded defaults (SQLite, in-memory cache) or on whatever
 * the configuration selects. `node apps/host/dist/main.js`.
 */
// First: it sets V8 flags that must precede the service's modules (biome keeps side-effect imports in place).
import './serving.js';
import { fileURLToPath } from 'node:url';
import { createServer, listen, StartupError } from '@svc/server';
import { registerSamples, SampleErrorCode, sampleSeedMenus } from './samples.js';

/** Content root default: this app's folder, so `./data/...` lands in `apps/host/data`. */
const HOST_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The built console shell (`apps/web`, `vite build`), served at `/` in Development (contract §10). */
export const CONSOLE_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Development settings of the reference host: the web root is the built console, so the README's run command
 * ends with the console at `/` beside the API. The upload root (`./wwwroot/upload` under the content root) stays
 * outside it. appsettings files and `Service__Web__*` variables still override both keys.
 */
export function hostDefaults(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const development = env.ASPNETCORE_ENVIRONMENT?.trim() === 'Development';
  return development ? { Service: { Web: { Enabled: true, RootPath: CONSOLE_ROOT } } } : {};
}

async function main(): Promise<void> {
  const server = await createServer({
    contentRoot: HOST_ROOT,
    defaults: hostDefaults(process.env),
    errorCodes: [SampleErrorCode],
    seedMenus: sampleSeedMenus,
    configure: (ctx, deps) => {
      if (deps.config.service.Samples.Enabled ?? deps.config.environment.isDevelopment) registerSamples(ctx);
    },
  });
  const running = await listen(server, server.deps.logger.child('Service.Host'));
  const stop = () => {
    running.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  if (error instanceof StartupError) console.error(`Start-up failed: ${error.message}`);
  else console.error('Start-up failed:', error);
  process.exit(1);
});
