/**
 * `@svc/data/testing`: fresh databases per test file and the dialect matrix of the test run.
 */

export { type BulkUsers, insertUsersInBulk } from './bulk.js';
export {
  type FaultServer,
  type FaultServerOrSkip,
  type FreezableProxy,
  holdUserRowsLock,
  sparePort,
  startFreezableProxy,
  startPrivatePostgres,
  startPrivateRedis,
} from './faults.js';
export { type DialectFixture, dialectFixtures, latePubSub, opLogRow } from './fixtures.js';
export {
  createTestDatabase,
  type OpenTestDatabase,
  openTestDatabase,
  TEST_SERVER_URLS,
  type TestDatabase,
  testDialects,
} from './test-database.js';
