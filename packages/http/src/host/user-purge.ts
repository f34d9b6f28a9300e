/**
 * Users deleted for good tell the modules: the user repository's `purge` is decorated in the composition root, so
 * the recycle bin's purge and every other hard delete through the server's repositories (the external login's
 * clean-up of a racing provisioning) run the enabled modules' `onUserPurged` once the user's row is gone. The
 * callers keep calling `repos.users.purge` and do not know.
 */
import type { Repositories } from '@svc/data';

/** The repositories with a user `purge` that tells `purged` of each user it deleted. */
export function withUserPurgeHooks(
  repos: Repositories,
  purged: (userId: number) => Promise<void>,
): Repositories {
  const inner = repos.users;
  return {
    ...repos,
    users: {
      ...inner,
      async purge(id) {
        const deleted = await inner.purge(id);
        if (deleted) await purged(id);
        return deleted;
      },
    },
  };
}
