/** Re-export of @svc/kernel. */
export * from '@svc/kernel';
