import { defineModuleMessagesContract } from './modules/realtime/module-messages.contract.js';

defineModuleMessagesContract('Sqlite');
