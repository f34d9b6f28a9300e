/**
 * The host's first import: V8 settings for a long-running server, applied before the service's modules load
 * (`@svc/server/v8` loads nothing else). See `applyServingV8Flags`; `node --allocation-site-pretenuring
 * dist/main.js` keeps V8's default.
 */
import { applyServingV8Flags } from '@svc/server/v8';

applyServingV8Flags();
