import { seedContract } from '../testing/contracts/seed.contract.js';
import { dialectFixtures } from '../testing/fixtures.js';

seedContract(dialectFixtures.PostgreSQL);
