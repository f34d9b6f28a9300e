/** Re-export of @svc/http. */
export * from '@svc/http';
