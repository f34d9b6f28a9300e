ALTER TABLE `sys_config` ADD `is_delete` integer DEFAULT false NOT NULL;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_sys_config` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`config_key` text(128) NOT NULL,
	`config_value` text NOT NULL,
	`value_type` text(16) DEFAULT 'string' NOT NULL,
	`name` text(128) NOT NULL,
	`built_in` integer DEFAULT false NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL,
	`config_key_live` text(128) GENERATED ALWAYS AS (case when is_delete = 0 then config_key end) STORED
);
--> statement-breakpoint
INSERT INTO `__new_sys_config`(`id`, `config_key`, `config_value`, `value_type`, `name`, `built_in`, `remark`, `create_time`, `create_user_id`, `update_time`, `update_user_id`) SELECT `id`, `config_key`, `config_value`, `value_type`, `name`, `built_in`, `remark`, `create_time`, `create_user_id`, `update_time`, `update_user_id` FROM `sys_config`;--> statement-breakpoint
DROP TABLE `sys_config`;--> statement-breakpoint
ALTER TABLE `__new_sys_config` RENAME TO `sys_config`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
DROP INDEX IF EXISTS `sys_config_config_key_uq`;--> statement-breakpoint
CREATE INDEX `sys_config_config_key_idx` ON `sys_config` (`config_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_config_config_key_live_uq` ON `sys_config` (`config_key_live`);