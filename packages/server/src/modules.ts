/** Re-export of @svc/modules. */
export * from '@svc/modules';
