/** The auth contracts on Sqlite with the in-process cache. */
import { lockoutContract } from './lockout.contract.js';
import { loginContract } from './login.contract.js';
import { loginRaceContract } from './login-race.contract.js';
import { passwordContract } from './password.contract.js';
import { permissionsContract } from './permissions.contract.js';
import { refreshContract } from './refresh.contract.js';
import { sessionsContract } from './sessions.contract.js';

const fixture = { dbType: 'Sqlite', cache: 'Memory' } as const;
loginContract(fixture);
loginRaceContract(fixture);
lockoutContract(fixture);
sessionsContract(fixture);
refreshContract(fixture);
passwordContract(fixture);
permissionsContract(fixture);
