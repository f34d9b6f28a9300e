/** What the monitor route receives (module `Monitor`), built once by the module. */
import type { ServerSnapshot } from '@svc/modules';

export interface MonitorRouteDeps {
  /** A one-shot snapshot of the process, the machine and the operation-log writer. */
  monitor(): Promise<ServerSnapshot>;
}
