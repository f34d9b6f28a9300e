import { defineAppContract } from './app.contract.js';

defineAppContract('MySql');
