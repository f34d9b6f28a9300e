/**
 * Re-export of @svc/http/testing: start the whole service on a fresh database of any dialect for a test (with a
 * user's own modules), grant a user permission codes, change a runtime key. For apps and modules built on
 * @svc/server, whose tests then need no other @svc package.
 */
export * from '@svc/http/testing';
