import { defineImportContract } from './modules/import/import.contract.js';
import { defineChunksContract } from './ops/chunks.contract.js';

defineImportContract('PostgreSQL', 'Memory');
defineChunksContract('PostgreSQL', 'Memory');
