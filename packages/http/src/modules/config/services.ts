/** What the config routes receive (module `Config`), built once by the module. */
import type { ConfigService, ConfigStore, SiteInfoService } from '@svc/data';
import { assertConfigKeyWritableBy } from '@svc/modules';
import type { RuntimeSettings } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';

export interface ConfigRouteDeps {
  /** The config centre: checked writes raising the change event. */
  configs: ConfigService;
  /** The login page's site info (its copy dropped on every change of its keys); rejected where it is awaited. */
  site: Promise<SiteInfoService>;
  /** The password policy in effect. */
  settings: Pick<RuntimeSettings, 'passwordPolicy'>;
  /** A key's stored value through the config snapshot the service reads. */
  configStore: Pick<ConfigStore, 'getRaw'>;
}

/** Refuses (41001) a write of a super-admin key by anyone else (@svc/modules `assertConfigKeyWritableBy`). */
export function assertConfigKeyWritable(c: Context<AppEnv>, key: string): void {
  const principal = c.get('principal');
  assertConfigKeyWritableBy(principal?.kind === 'user' && principal.isSuperAdmin, key);
}
