/** Re-export of @svc/data. */
export * from '@svc/data';
