/** Re-export of @svc/security. */
export * from '@svc/security';
