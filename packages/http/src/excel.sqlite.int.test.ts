import { defineImportContract } from './excel/import.contract.js';

defineImportContract('Sqlite', 'Memory');
