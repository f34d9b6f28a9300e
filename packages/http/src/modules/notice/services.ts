/** What module `Notice` builds once: the notice service's deps and what its routes check a publisher with. */
import type { DataScopeFilter, Repositories } from '@svc/data';
import type { NoticeDeps } from '@svc/modules';
import type { AdminActor, Principal } from '@svc/security';

export interface NoticeServices {
  /** The repositories, the clock and module `Realtime`'s publisher (undefined while it is off). */
  notices: NoticeDeps;
  /**
   * The administrators' alert (the scheduled jobs' Panic): a Message notice to the live, enabled super
   * administrators, told as any notice.
   */
  alertAdministrators(title: string, text: string): Promise<void>;
  /** The caller's permission codes (a POST action needs the codes of its route: action-rank.ts). */
  codesOf(userId: number): Promise<ReadonlySet<string>>;
  /** The caller's data scope (whom they may send to, whose notices they page and delete). */
  scopeOf(principal: Principal): Promise<DataScopeFilter>;
  /** The caller as the administration services judge rank (module `Admin`). */
  actorOf(principal: Principal): AdminActor;
  /** The rows the rank over a POST action's receivers is read from. */
  repos: Pick<Repositories, 'users' | 'roles' | 'orgs'>;
}
