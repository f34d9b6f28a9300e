import { defineGrantContract } from './admin/grants.contract.js';
import { defineRankContract } from './admin/rank.contract.js';
import { defineRouteSeedContract } from './admin/routes.contract.js';
import { defineScopeContract } from './admin/scope.contract.js';
import { defineSessionAdminContract } from './admin/sessions.contract.js';
import { defineStructureContract } from './admin/structure.contract.js';
import { defineUniquenessContract } from './admin/uniqueness.contract.js';
import { defineUserAdminContract } from './admin/users.contract.js';

defineUserAdminContract('PostgreSQL', 'Redis');
defineGrantContract('PostgreSQL', 'Redis');
defineScopeContract('PostgreSQL', 'Redis');
defineStructureContract('PostgreSQL', 'Redis');
defineSessionAdminContract('PostgreSQL', 'Redis');
defineRouteSeedContract('PostgreSQL', 'Redis');
defineRankContract('PostgreSQL', 'Redis');
defineUniquenessContract('PostgreSQL', 'Redis');
