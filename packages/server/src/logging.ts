/** Re-export of @svc/logging. */
export * from '@svc/logging';
