import { largeIdListsContract } from '../testing/contracts/large-id-lists.contract.js';
import { dialectFixtures } from '../testing/fixtures.js';

largeIdListsContract(dialectFixtures.MySql);
