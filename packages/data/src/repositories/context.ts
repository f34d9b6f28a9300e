/**
 * What every repository is built from: the query surface, the dialect adapter and the tables of one open
 * database. Repositories are written once for all dialects against this.
 */
import type { Database } from '../database.js';

export type RepositoryContext = Pick<Database, 'db' | 'adapter' | 'tables'>;
