/**
 * Notices (module `Notice`): publish to all users, to roles or to users, with same-origin actions; receivers are
 * resolved at publish time; each change tells the receivers through module `Realtime` when it is on (message kind
 * `notice-changed`, {@link NOTICE_CHANGED}). `publishNotice` is the server-side entry (no HTTP); the scheduled jobs'
 * alerts go through {@link noticeAlert}.
 *
 * Data scope (contract §4): the administration routes pass the caller's scope. A notice belongs to its sender's
 * scope, as a file to its uploader's: the page and delete see only notices sent by a user inside it (41005 is not
 * used for delete: one outside answers 45001 as an absent one, as files answer 44004). Sending writes into other
 * people's inboxes, so it reaches no one outside the scope:
 * - All (0) reaches every user: scope All only (or the super admin), else 41005.
 * - User (2): every id must be a user inside the scope, else 41005 naming the ids outside. An id that is no user
 *   counts as outside, checked before existence, so a scoped caller cannot tell an absent user from one beyond
 *   their scope (45003 then only for a deleted user inside it).
 * - Role (1): scope All only, else 41005. A role is no row of any organisation; its members span organisations
 *   and change. Delivering only to the members inside the scope would store a "Role" notice that reached part of
 *   the role, unseen by the publisher and by whoever reads the list; refusing only when some member is outside
 *   would tell the publisher who holds the role beyond their scope. A scoped administrator sends to users instead:
 *   the same people, named from their own (scoped) user page.
 * Without a scope (the server-side entry, the jobs' alerts) nothing is narrowed: the server sends as itself.
 * The recycle bin follows the same rules: it shows only notices sent inside the caller's scope, and a restore,
 * which delivers the notice again, only to receivers the restorer could send to now (`assertRestorableWithin`).
 */

import {
  type DataScopeFilter,
  type MyNotice,
  type MyNoticeQuery,
  type NoticePageQuery,
  NoticeReceiverType,
  type Page,
  type Repositories,
  type SysNoticeRow,
} from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { RealtimePublisher } from '../realtime/bus.js';
import { NoticeErrorCode } from './codes.js';

/** The realtime message kind a notice change is told with (declared by module `Notice`). */
export const NOTICE_CHANGED = 'notice-changed';

/** What the receivers' sockets get with {@link NOTICE_CHANGED}: refetch the inbox and the unread count. */
export interface NoticeChangedData {
  noticeId: number;
  action: 'published' | 'deleted' | 'restored';
}

/** Notice kinds: 1 Notice, 2 Announcement, 3 Message. */
export type NoticeType = 1 | 2 | 3;
/** Receiver kinds: 0 All, 1 Role, 2 User. */
export type NoticeReceiverKind = 0 | 1 | 2;

/** A button shown with a notice. */
export interface NoticeAction {
  label: string;
  method: 'GET' | 'POST';
  /** Same-origin path: exactly one leading `/` (see {@link isSameOriginPath}). */
  url: string;
  style?: string | undefined;
  confirm?: string | undefined;
  comment?: string | undefined;
}

export interface PublishNoticeInput {
  title: string;
  content?: string | null | undefined;
  type: NoticeType;
  receiverType: NoticeReceiverKind;
  /** Role ids (Role) or user ids (User); ignored for All. */
  receiverIds?: readonly number[] | undefined;
  actions?: readonly NoticeAction[] | undefined;
}

/** A notice as its reader sees it. */
export interface MyNoticeView {
  id: number;
  title: string;
  content: string | null;
  type: number;
  publishTime: string;
  isRead: boolean;
  actions: NoticeAction[];
}

/** What the notice service needs (module `Notice` builds it once). */
export interface NoticeDeps {
  repos: Pick<Repositories, 'notices'>;
  /** Tells the receivers (module `Realtime`'s services); undefined while Realtime is off: nobody is told. */
  realtime: RealtimePublisher | undefined;
  now: () => Date;
}

/** Longest action URL accepted. */
const MAX_URL = 1000;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether `url` is a path on this origin: it starts with exactly one `/`, has no `//` and no backslash anywhere
 * (browsers read `/\evil` as `//evil`), no control characters, no `.` or `..` segment (plain or encoded), and no
 * scheme (`/x:` is still a path, but a colon before the first slash cannot occur since the first character is the
 * slash).
 */
export function isSameOriginPath(url: string): boolean {
  if (url.length === 0 || url.length > MAX_URL) return false;
  if (!url.startsWith('/')) return false;
  if (url.includes('//') || url.includes('\\')) return false;
  if (CONTROL.test(url)) return false;
  // Whitespace would be trimmed or percent-encoded differently by clients; refuse it outright.
  if (/\s/.test(url)) return false;
  // A browser resolves `.` and `..` segments (also as `%2e`) before sending: `/api/v1/sys/notice/../cache/x`
  // reaches another path than it reads, so the path must mean what it says.
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return !path.split('/').some((segment) => DOT_SEGMENTS.has(segment.replaceAll(/%2e/gi, '.')));
}

const DOT_SEGMENTS = new Set(['.', '..']);

function checkActions(actions: readonly NoticeAction[] | undefined): void {
  actions?.forEach((action, index) => {
    const fine =
      typeof action.label === 'string' &&
      action.label.trim().length > 0 &&
      (action.method === 'GET' || action.method === 'POST') &&
      typeof action.url === 'string' &&
      isSameOriginPath(action.url);
    if (!fine) throw new BusinessError(NoticeErrorCode.NoticeActionInvalid, { index });
  });
}

/** The given ids that are no user inside the scope: absent ones count as outside (see the header). */
async function usersOutside(
  deps: Pick<NoticeDeps, 'repos'>,
  ids: readonly number[],
  scope: DataScopeFilter,
): Promise<number[]> {
  const inside = new Set(await deps.repos.notices.userIdsInScope(ids, scope));
  return ids.filter((id) => !inside.has(id));
}

const beyondScope = () => new BusinessError(ErrorCode.OutOfDataScope, { reason: 'receivers-beyond-scope' });

/** Refuses (41005) receivers beyond the publisher's scope; `ids` are the distinct receiver ids (see the header). */
async function assertReceiversInScope(
  deps: NoticeDeps,
  receiverType: NoticeReceiverKind,
  ids: readonly number[],
  scope: DataScopeFilter | undefined,
): Promise<void> {
  if (!scope || scope.all) return;
  if (receiverType !== NoticeReceiverType.User) throw beyondScope();
  const outside = await usersOutside(deps, ids, scope);
  if (outside.length > 0)
    throw new BusinessError(ErrorCode.OutOfDataScope, { reason: 'data-scope', ids: outside });
}

/**
 * Refuses (41005, `receivers-beyond-scope`) bringing a deleted notice back from the recycle bin unless the
 * restorer could publish it now: a restore delivers it again (to everyone, to the role's members as resolved at
 * publish time, or to its users), so it is held to the publish rule of the header, whoever sent it and whatever
 * scope they had then. The receivers beyond the scope are not named: the restorer did not choose them.
 */
export async function assertRestorableWithin(
  deps: Pick<NoticeDeps, 'repos'>,
  notice: Pick<SysNoticeRow, 'id' | 'receiverType'>,
  scope: DataScopeFilter,
): Promise<void> {
  if (scope.all) return;
  if (notice.receiverType !== NoticeReceiverType.User) throw beyondScope();
  const outside = await usersOutside(deps, await deps.repos.notices.receiverIds(notice.id), scope);
  if (outside.length > 0) throw beyondScope();
}

/**
 * The receiver user ids of a Role or User notice, now (45002 without ids, 41005 beyond the scope, 45003 for
 * unknown ids).
 */
async function resolveReceivers(
  deps: NoticeDeps,
  input: PublishNoticeInput,
  scope: DataScopeFilter | undefined,
): Promise<number[]> {
  const ids = [...new Set(input.receiverIds ?? [])];
  if (input.receiverType !== NoticeReceiverType.All && ids.length === 0)
    throw new BusinessError(NoticeErrorCode.NoticeReceiverRequired);
  await assertReceiversInScope(deps, input.receiverType, ids, scope);
  if (input.receiverType === NoticeReceiverType.All) return [];
  const repo = deps.repos.notices;
  const known = new Set(
    input.receiverType === NoticeReceiverType.Role
      ? await repo.liveRoleIds(ids)
      : await repo.liveUserIds(ids),
  );
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw new BusinessError(NoticeErrorCode.NoticeReceiverNotFound, { ids: missing });
  return input.receiverType === NoticeReceiverType.Role ? repo.roleMemberIds(ids) : ids;
}

/** How a publisher is held back (the administration route passes both; the server-side entry neither). */
export interface PublishNoticeOptions {
  /**
   * The publisher's data scope: receivers beyond it are refused with 41005 (see the file header).
   * @default undefined (no narrowing: the server sends as itself)
   */
  scope?: DataScopeFilter | undefined;
  /**
   * Refuses the receivers the notice resolved to (their user ids; none for All), before anything is written.
   * @default undefined
   */
  checkReceivers?: ((userIds: readonly number[]) => Promise<void>) | undefined;
}

/**
 * Publishes a notice and tells its receivers; answers its id. Throws 45002–45004 for bad receivers or actions,
 * 41005 for receivers beyond `options.scope`.
 * @example await publishNotice(deps, { title: 'Job X panicked', type: 1, receiverType: 1, receiverIds: [1] }, null);
 */
export async function publishNotice(
  deps: NoticeDeps,
  input: PublishNoticeInput,
  actorId: number | null,
  options: PublishNoticeOptions = {},
): Promise<number> {
  checkActions(input.actions);
  const receivers = await resolveReceivers(deps, input, options.scope);
  await options.checkReceivers?.(receivers);
  const at = deps.now();
  const id = await deps.repos.notices.create(
    {
      title: input.title,
      content: input.content ?? null,
      type: input.type,
      receiverType: input.receiverType,
      actionsJson: input.actions && input.actions.length > 0 ? JSON.stringify(input.actions) : null,
      publishTime: at,
      createTime: at,
      createUserId: actorId,
    },
    receivers,
  );
  await tellReceivers(deps, { noticeId: id, action: 'published' }, input.receiverType, receivers);
  return id;
}

/**
 * Tells the receivers of a notice (every user for an All notice) that it changed, when Realtime is on; `userIds`
 * are read only then.
 */
async function tellReceivers(
  deps: Pick<NoticeDeps, 'realtime'>,
  change: NoticeChangedData,
  receiverType: number,
  userIds: readonly number[] | (() => Promise<readonly number[]>),
): Promise<void> {
  if (!deps.realtime) return;
  const to =
    receiverType === NoticeReceiverType.All
      ? ({ all: true } as const)
      : { userIds: typeof userIds === 'function' ? await userIds() : userIds };
  await deps.realtime.publish(NOTICE_CHANGED, to, change);
}

/**
 * Tells the receivers of a notice the recycle bin brought back (module `RecycleBin`'s restore; the receivers are
 * those it was published to).
 */
export function noticeRestored(
  deps: Pick<NoticeDeps, 'repos' | 'realtime'>,
  notice: Pick<SysNoticeRow, 'id' | 'receiverType'>,
): Promise<void> {
  return tellReceivers(deps, { noticeId: notice.id, action: 'restored' }, notice.receiverType, () =>
    deps.repos.notices.receiverIds(notice.id),
  );
}

/**
 * Deletes a notice (soft); it vanishes from every inbox and its receivers are told. 45001 when absent or, given a
 * scope, sent by no user inside it (as for an absent one: files answer 44004 alike).
 */
export async function deleteNotice(
  deps: NoticeDeps,
  id: number,
  actorId: number | null,
  scope?: DataScopeFilter,
): Promise<void> {
  const repo = deps.repos.notices;
  const row = await repo.get(id, scope);
  if (!row || !(await repo.softDelete(id, { userId: actorId, at: deps.now() })))
    throw new BusinessError(NoticeErrorCode.NoticeNotFound);
  await tellReceivers(deps, { noticeId: id, action: 'deleted' }, row.receiverType, () =>
    repo.receiverIds(id),
  );
}

/** Live notices, newest first; given a scope, only those sent by users inside it (none of no sender but for All). */
export function pageNotices(
  deps: NoticeDeps,
  query: NoticePageQuery,
  scope?: DataScopeFilter,
): Promise<Page<SysNoticeRow>> {
  return deps.repos.notices.page(query, scope);
}

function actionsOf(json: string | null): NoticeAction[] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? (parsed as NoticeAction[]) : [];
  } catch {
    return [];
  }
}

function view(row: MyNotice): MyNoticeView {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    type: row.type,
    publishTime: row.publishTime.toISOString(),
    isRead: row.isRead,
    actions: actionsOf(row.actionsJson),
  };
}

/** The caller's inbox, newest first. */
export async function myNotices(
  deps: NoticeDeps,
  userId: number,
  query: MyNoticeQuery,
): Promise<Page<MyNoticeView>> {
  const page = await deps.repos.notices.mine(userId, query);
  return { ...page, items: page.items.map(view) };
}

export function unreadNoticeCount(deps: NoticeDeps, userId: number): Promise<number> {
  return deps.repos.notices.unreadCount(userId);
}

/** Marks one notice read; 45001 when it is deleted, absent or not addressed to the caller. */
export async function readNotice(deps: NoticeDeps, userId: number, noticeId: number): Promise<void> {
  if (!(await deps.repos.notices.isVisibleTo(noticeId, userId)))
    throw new BusinessError(NoticeErrorCode.NoticeNotFound);
  await deps.repos.notices.markRead(noticeId, userId, deps.now());
}

/** Marks every notice of the caller read; answers how many changed. */
export function readAllNotices(deps: NoticeDeps, userId: number): Promise<number> {
  return deps.repos.notices.markAllRead(userId, deps.now());
}

/**
 * The administrators' alert of the scheduled jobs: a Message notice to the live, enabled super administrators
 * (nothing when there is none), told through module `Realtime` as any notice.
 * @example const alert = noticeAlert({ repos, realtime, now }); await alert('Job X is in Panic', text);
 */
export function noticeAlert(
  deps: NoticeDeps & { repos: Pick<Repositories, 'notices' | 'users'> },
): (title: string, text: string) => Promise<void> {
  return async (title, text) => {
    const receiverIds = await deps.repos.users.superAdminIds();
    if (receiverIds.length === 0) return;
    await publishNotice(
      deps,
      { title, content: text, type: 3, receiverType: NoticeReceiverType.User, receiverIds },
      null,
    );
  };
}
