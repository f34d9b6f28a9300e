ALTER TABLE `sys_dict_type` ADD `code_live` varchar(64) GENERATED ALWAYS AS (case when is_delete = 0 then code end) STORED;--> statement-breakpoint
ALTER TABLE `sys_role` ADD `code_live` varchar(64) GENERATED ALWAYS AS (case when is_delete = 0 then lower(code) end) STORED;--> statement-breakpoint
ALTER TABLE `sys_user` ADD `account_live` varchar(64) GENERATED ALWAYS AS (case when is_delete = 0 then lower(account) end) STORED;--> statement-breakpoint
CREATE UNIQUE INDEX `sys_dict_type_code_live_uq` ON `sys_dict_type` (`code_live`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_role_code_live_uq` ON `sys_role` (`code_live`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_user_account_live_uq` ON `sys_user` (`account_live`);