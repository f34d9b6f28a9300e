/** What module `Log` and the scheduled clean-up keep of the logs. */
export { logRetentionReclaimer } from './retention.js';
