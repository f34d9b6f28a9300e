/**
 * The typed client: openapi-fetch over the generated `paths`, with the middleware chain of `chain.ts` as its
 * fetch. `unwrap` turns an answer into its data or an `ApiError`.
 */
import createClient, { type Client } from 'openapi-fetch';
import { type ChainOptions, createChainFetch } from './chain.js';
import type { paths } from './schema.js';

export type ApiClient = Client<paths>;

export interface ApiClientOptions extends ChainOptions {
  /** Where the API lives. @default '' (same origin) */
  baseUrl?: string;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const chained = createChainFetch(options);
  const origin = typeof location === 'undefined' ? 'http://localhost' : location.origin;
  return createClient<paths>({
    baseUrl: options.baseUrl || origin,
    fetch: chained,
  });
}
