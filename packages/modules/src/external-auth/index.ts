/** External login (OpenID Connect): the flows, tickets and bindings, the options check and the openid-client peer. */

export * from './codes.js';
export * from './library.js';
export * from './options.js';
export * from './service.js';
