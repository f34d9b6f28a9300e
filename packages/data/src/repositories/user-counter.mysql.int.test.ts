import { userCounterContract } from '../testing/contracts/user-counter.contract.js';
import { dialectFixtures } from '../testing/fixtures.js';

userCounterContract(dialectFixtures.MySql);
