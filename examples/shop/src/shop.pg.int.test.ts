import { defineShopContract } from './shop.contract.js';

defineShopContract('PostgreSQL');
