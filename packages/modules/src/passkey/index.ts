/** Passkeys (WebAuthn): the ceremonies, the stored credentials, the options check and the @simplewebauthn/server peer. */

export * from './codes.js';
export * from './library.js';
export * from './options.js';
export * from './service.js';
export * from './store.js';
export * from './tables/index.js';
