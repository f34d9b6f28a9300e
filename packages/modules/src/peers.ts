/**
 * Where this package's optional peers (bullmq, ioredis, exceljs, openid-client, @simplewebauthn/server) resolve from: start-up's library check looks them up
 * from here, as the imports in this package do.
 */
export const MODULE_PEERS_FROM: string = import.meta.url;
