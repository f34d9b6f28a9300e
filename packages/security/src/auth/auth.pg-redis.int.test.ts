/**
 * The concurrency-sensitive auth contracts on PostgreSQL (real concurrent connections) with Redis
 * (`SVC_TEST_REDIS_URL`, default redis://127.0.0.1:6379; a unique key prefix per file): rotation races,
 * revocation (password change included), session limits under concurrent logins, and the lock counter shared through Redis.
 */
import { lockoutContract } from './lockout.contract.js';
import { loginContract } from './login.contract.js';
import { loginRaceContract } from './login-race.contract.js';
import { passwordContract } from './password.contract.js';
import { permissionsContract } from './permissions.contract.js';
import { refreshContract } from './refresh.contract.js';
import { sessionsContract } from './sessions.contract.js';

const fixture = { dbType: 'PostgreSQL', cache: 'Redis' } as const;
loginContract(fixture);
loginRaceContract(fixture);
lockoutContract(fixture);
sessionsContract(fixture);
refreshContract(fixture);
passwordContract(fixture);
permissionsContract(fixture);
