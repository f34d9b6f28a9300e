import { defineGrantContract } from './admin/grants.contract.js';
import { defineRankContract } from './admin/rank.contract.js';
import { defineRouteSeedContract } from './admin/routes.contract.js';
import { defineScopeContract } from './admin/scope.contract.js';
import { defineSessionAdminContract } from './admin/sessions.contract.js';
import { defineStructureContract } from './admin/structure.contract.js';
import { defineUniquenessContract } from './admin/uniqueness.contract.js';
import { defineUserAdminContract } from './admin/users.contract.js';

defineUserAdminContract('Sqlite', 'Memory');
defineGrantContract('Sqlite', 'Memory');
defineScopeContract('Sqlite', 'Memory');
defineStructureContract('Sqlite', 'Memory');
defineSessionAdminContract('Sqlite', 'Memory');
defineRouteSeedContract('Sqlite', 'Memory');
defineRankContract('Sqlite', 'Memory');
defineUniquenessContract('Sqlite', 'Memory');
