import { defineGrantContract } from './modules/admin/grants.contract.js';
import { defineRankContract } from './modules/admin/rank.contract.js';
import { defineRouteSeedContract } from './modules/admin/routes.contract.js';
import { defineScopeContract } from './modules/admin/scope.contract.js';
import { defineSessionAdminContract } from './modules/admin/sessions.contract.js';
import { defineStructureContract } from './modules/admin/structure.contract.js';
import { defineUniquenessContract } from './modules/admin/uniqueness.contract.js';
import { defineUserAdminContract } from './modules/admin/users.contract.js';

defineUserAdminContract('MySql', 'Memory');
defineGrantContract('MySql', 'Memory');
defineScopeContract('MySql', 'Memory');
defineStructureContract('MySql', 'Memory');
defineSessionAdminContract('MySql', 'Memory');
defineRouteSeedContract('MySql', 'Memory');
defineRankContract('MySql', 'Memory');
defineUniquenessContract('MySql', 'Memory');
