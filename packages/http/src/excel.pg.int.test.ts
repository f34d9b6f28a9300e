import { defineImportContract } from './excel/import.contract.js';

defineImportContract('PostgreSQL', 'Memory');
