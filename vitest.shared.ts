/**
 * Settings both vitest configs share: workspace packages resolve to their TypeScript source through the
 * `@svc/source` export condition, so tests never need a build first.
 */
export const resolve = { conditions: ['@svc/source'] };
export const exclude = ['**/node_modules/**', '**/dist/**'];
