/** What the dictionary routes receive (module `Dict`), built once by the module. */
import type { DictService } from '@svc/data';

export interface DictRouteDeps {
  /** The dictionary service (its per-instance copy dropped on every change event); rejected where it is awaited. */
  dicts: Promise<DictService>;
}
