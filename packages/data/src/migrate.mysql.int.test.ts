import { schemaContract } from './testing/contracts/schema.contract.js';
import { dialectFixtures } from './testing/fixtures.js';

schemaContract(dialectFixtures.MySql);
