/**
 * @svc/server: the meta-package. Every layer under one name (`@svc/server`) and one subpath per layer
 * (`@svc/server/kernel`, …). `createServer(options)` composes the layers; it lives in @svc/http and is
 * re-exported here. No logic of its own.
 */
export * from '@svc/data';
export * from '@svc/http';
export * from '@svc/kernel';
export * from '@svc/logging';
export * from '@svc/modules';
export * from '@svc/security';
