import { userImportContract } from '../testing/contracts/user-import.contract.js';
import { dialectFixtures } from '../testing/fixtures.js';

userImportContract(dialectFixtures.Sqlite);
