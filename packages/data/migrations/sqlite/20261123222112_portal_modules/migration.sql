CREATE TABLE `sys_module` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`code` text(64) NOT NULL,
	`title` text(64) NOT NULL,
	`icon` text(64),
	`default_route` text(200),
	`api_prefix` text(64),
	`sort` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL,
	`code_live` text(64) GENERATED ALWAYS AS (case when is_delete = 0 then lower(code) end) VIRTUAL
);
--> statement-breakpoint
ALTER TABLE `sys_menu` ADD `module_id` integer;--> statement-breakpoint
ALTER TABLE `sys_user` ADD `default_module_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `sys_module_code_live_uq` ON `sys_module` (`code_live`);