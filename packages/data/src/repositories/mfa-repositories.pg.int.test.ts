import { mfaRepositoriesContract } from '../testing/contracts/mfa-repositories.contract.js';
import { dialectFixtures } from '../testing/fixtures.js';

mfaRepositoriesContract(dialectFixtures.PostgreSQL);
