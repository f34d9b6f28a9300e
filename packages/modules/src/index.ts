/**
 * @svc/modules: the framework-free engines of the built-in modules (scheduled jobs, Excel import and export,
 * external login, passkeys, files and chunked upload, notices, realtime messages, the cache actions, config-key rules, log
 * retention and the server monitor). They know no HTTP framework: the module definitions and routes that serve
 * them live in @svc/http (`packages/http/src/modules/<name>/`), and a worker process or a script can use an
 * engine without them. Libraries only one module needs are optional peers, loaded when that module is on.
 */
export * from './cache/index.js';
export * from './config/index.js';
export * from './dict/index.js';
export * from './external-auth/index.js';
export * from './import/index.js';
export * from './job/index.js';
export * from './log/index.js';
export * from './monitor/index.js';
export * from './notice/codes.js';
export {
  assertRestorableWithin,
  deleteNotice,
  isSameOriginPath,
  type MyNoticeView,
  myNotices,
  NOTICE_CHANGED,
  type NoticeAction,
  type NoticeChangedData,
  type NoticeDeps,
  type NoticeReceiverKind,
  type NoticeType,
  noticeAlert,
  noticeRestored,
  type PublishNoticeInput,
  type PublishNoticeOptions,
  pageNotices,
  publishNotice,
  readAllNotices,
  readNotice,
  unreadNoticeCount,
} from './notice/service.js';
export * from './passkey/index.js';
export * from './peers.js';
export {
  createRealtimeBus,
  type ForceLogoutEvent,
  REALTIME_CHANNEL,
  type RealtimeBus,
  type RealtimeBusOptions,
  type RealtimeEvent,
  type RealtimeMessageEvent,
  type RealtimePublisher,
  type RealtimeRecipients,
} from './realtime/bus.js';
export {
  fullBucket,
  isRefilled,
  type MessageBucket,
  type MessageRate,
  takeMessage,
} from './realtime/message-bucket.js';
export { type RealtimeOptions, realtimeOptions } from './realtime/options.js';
export * from './upload/index.js';
