import { defineImportContract } from './excel/import.contract.js';

defineImportContract('MySql', 'Memory');
