import { defineAppContract } from './app.contract.js';
import { defineEdgeContract } from './edge.contract.js';

defineAppContract('MySql');
defineEdgeContract('MySql');
