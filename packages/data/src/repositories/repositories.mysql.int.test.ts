import { repositoriesContract } from '../testing/contracts/repositories.contract.js';
import { dialectFixtures } from '../testing/fixtures.js';

repositoriesContract(dialectFixtures.MySql);
