/**
 * Reference samples (contract §9): how a consumer adds its own error codes and routes. Mounted when
 * `Service:Samples:Enabled` is true (default: Development only). The routes that need authentication are
 * added with the security layer.
 */
import {
  BusinessError,
  createRoute,
  defineErrorCodes,
  envelopeResponses,
  type RegisterContext,
  registerRoute,
  z,
} from '@svc/server';

/** A consumer code set in the consumer segment (60000 and up). */
export const SampleErrorCode = defineErrorCodes('SampleErrorCode', {
  SampleFailure: { code: 60001, msgKey: 'sample.failure' },
});

const fail = createRoute({
  method: 'get',
  path: '/api/v1/sample/fail',
  tags: ['Samples'],
  summary: 'Throws the consumer code 60001',
  responses: envelopeResponses(z.null()),
});

const crash = createRoute({
  method: 'get',
  path: '/api/v1/sample/crash',
  tags: ['Samples'],
  summary: 'Throws an unexpected error (HTTP 500, exception log row)',
  responses: envelopeResponses(z.null()),
});

export function registerSamples(ctx: RegisterContext): void {
  registerRoute(ctx, fail, { auth: 'anonymous' }, () => {
    throw new BusinessError(SampleErrorCode.SampleFailure);
  });
  registerRoute(ctx, crash, { auth: 'anonymous' }, () => {
    throw new Error('Sample crash: this message must reach the exception log, never the client.');
  });
}
