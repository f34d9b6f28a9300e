import { authRepositoriesContract } from '../testing/contracts/auth-repositories.contract.js';
import { dialectFixtures } from '../testing/fixtures.js';

authRepositoriesContract(dialectFixtures.PostgreSQL);
