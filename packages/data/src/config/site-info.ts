/**
 * Site info for `GET /api/v1/sys/config/site` (anonymous): only the runtime keys the kernel marks `public`
 * (branding and the login switches a login page needs: captcha on and its type, SMS login on), and the `features`
 * others add ({@link SiteFeature}: the server's modules, module Passkey's `passkey`). It is built from the config
 * store and the features' reads, kept until a `ConfigChangedEvent` for one of its keys or a feature's keys (or for
 * all) arrives, and otherwise follows the store's own lifetime.
 */
import {
  type CaptchaType,
  parseRuntimeValue,
  RUNTIME_KEYS,
  type RuntimeKeyDef,
  type RuntimeValue,
  runtimeKeyDef,
  type ServiceOptions,
} from '@svc/kernel';
import type { Cache } from '../cache/port.js';
import { CONFIG_CHANGED_CHANNEL, type ConfigChangedEvent, type ConfigStore } from '../config-store.js';

/** What an anonymous caller may learn. */
export interface SiteInfo {
  title: string;
  logoUrl: string;
  footer: string;
  captchaEnabled: boolean;
  captchaType: CaptchaType;
  smsLoginEnabled: boolean;
  /** The flags of the {@link SiteFeature}s, by name (`passkey`); none without features. */
  features: Record<string, boolean>;
}

/** A flag the login page learns from the site info, added by a part the site info does not know (a module). */
export interface SiteFeature {
  /** Its name under `features` (`passkey`). */
  name: string;
  /** Whether it is on now; asked when the answer is built, so it must be cheap (a runtime key, an option). */
  read(): Promise<boolean>;
  /** The runtime keys it depends on: a change of one drops the built answer, as a change of the site keys does. */
  keys?: readonly string[];
}

/** The whitelist: answer field → runtime key. Every key here is `public` in the kernel and vice versa. */
export const SITE_INFO_KEYS = {
  title: 'sys.site.title',
  logoUrl: 'sys.site.logoUrl',
  footer: 'sys.site.footer',
  captchaEnabled: 'sys.security.captcha.enabled',
  captchaType: 'sys.security.captcha.type',
  smsLoginEnabled: 'sys.security.smsLogin.enabled',
} as const satisfies Record<Exclude<keyof SiteInfo, 'features'>, string>;

/** The kernel's public runtime keys (a test holds them equal to {@link SITE_INFO_KEYS}). */
export const publicRuntimeKeys = (): string[] =>
  (RUNTIME_KEYS as readonly RuntimeKeyDef[]).filter((d) => d.public).map((d) => d.key);

export interface SiteInfoService {
  get(): Promise<SiteInfo>;
  /** Drops the built answer; 1 when one was cached. */
  drop(): number;
  close(): Promise<void>;
}

export interface SiteInfoDeps {
  store: Pick<ConfigStore, 'getRaw'>;
  cache: Pick<Cache, 'subscribe'>;
  options: ServiceOptions;
  /** Lifetime without an explicit invalidation. @default 20 minutes (`Cache:PermissionMinutes`) */
  ttlMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** The features, asked when an answer is built and when a change arrives (so they may be known later). @default none */
  features?: () => readonly SiteFeature[];
  /** Told when a feature's `read` fails (the feature then answers false). @default ignore */
  onFeatureError?: (name: string, error: unknown) => void;
}

export async function createSiteInfoService(deps: SiteInfoDeps): Promise<SiteInfoService> {
  const ttlMs = deps.ttlMs ?? 20 * 60_000;
  const now = deps.now ?? Date.now;
  let built: Promise<SiteInfo> | undefined;
  let builtAt = 0;
  const watched = new Set<string>(Object.values(SITE_INFO_KEYS));
  const features = () => deps.features?.() ?? [];
  const featureWatches = (key: string) => {
    try {
      return features().some((f) => f.keys?.includes(key));
    } catch {
      // Not known yet (the server is still being built): dropping is always safe.
      return true;
    }
  };
  const drop = () => {
    const had = built !== undefined;
    built = undefined;
    return had ? 1 : 0;
  };
  const unsubscribe = await deps.cache.subscribe<ConfigChangedEvent>(CONFIG_CHANGED_CHANNEL, (event) => {
    if (event.key === null || event.key === undefined || watched.has(event.key) || featureWatches(event.key))
      drop();
  });

  async function read(key: string): Promise<RuntimeValue> {
    const def = runtimeKeyDef(key);
    if (!def) throw new RangeError(`${key} is not a runtime key.`);
    return parseRuntimeValue(def, await deps.store.getRaw(key)) ?? def.fallback(deps.options);
  }

  async function build(): Promise<SiteInfo> {
    const entries = await Promise.all(
      Object.entries(SITE_INFO_KEYS).map(async ([field, key]) => [field, await read(key)] as const),
    );
    // One failing feature answers false: the anonymous site info (captcha, SMS, branding) still answers.
    const flags = await Promise.all(
      features().map(async (f) => {
        try {
          return [f.name, await f.read()] as const;
        } catch (error) {
          deps.onFeatureError?.(f.name, error);
          return [f.name, false] as const;
        }
      }),
    );
    return {
      ...(Object.fromEntries(entries) as Omit<SiteInfo, 'features'>),
      features: Object.fromEntries(flags),
    };
  }

  return {
    get() {
      if (!built || now() - builtAt >= ttlMs) {
        const pending = build();
        built = pending;
        builtAt = now();
        // A failed read is not kept: the next call tries again.
        pending.catch(() => {
          if (built === pending) built = undefined;
        });
      }
      return built;
    },
    drop,
    close: unsubscribe,
  };
}
