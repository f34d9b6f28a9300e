import { defineImportContract } from './modules/import/import.contract.js';
import { defineChunksContract } from './modules/upload/chunks.contract.js';

defineImportContract('PostgreSQL', 'Memory');
defineChunksContract('PostgreSQL', 'Memory');
