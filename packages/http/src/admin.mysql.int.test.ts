import { defineGrantContract } from './admin/grants.contract.js';
import { defineRankContract } from './admin/rank.contract.js';
import { defineRouteSeedContract } from './admin/routes.contract.js';
import { defineScopeContract } from './admin/scope.contract.js';
import { defineSessionAdminContract } from './admin/sessions.contract.js';
import { defineStructureContract } from './admin/structure.contract.js';
import { defineUniquenessContract } from './admin/uniqueness.contract.js';
import { defineUserAdminContract } from './admin/users.contract.js';

defineUserAdminContract('MySql', 'Memory');
defineGrantContract('MySql', 'Memory');
defineScopeContract('MySql', 'Memory');
defineStructureContract('MySql', 'Memory');
defineSessionAdminContract('MySql', 'Memory');
defineRouteSeedContract('MySql', 'Memory');
defineRankContract('MySql', 'Memory');
defineUniquenessContract('MySql', 'Memory');
