/**
 * What the scheduled-job routes receive (module `Job`): the job system of @svc/modules (engine, service, clean-up
 * handler), built once by the module.
 */
import type { JobSystem } from '@svc/modules';

export interface JobServices {
  /** The engine (started and stopped by the module), the service the routes call and the clean-up handler. */
  jobs: JobSystem;
}
