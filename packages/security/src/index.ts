/**
 * @svc/security: tokens, sessions, login flow, second factors, lockout, password policy, rate limits, API keys,
 * permissions and data scope.
 */
export {};
