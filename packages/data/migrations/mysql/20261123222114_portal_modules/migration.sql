CREATE TABLE `sys_module` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`code` varchar(64) NOT NULL,
	`title` varchar(64) NOT NULL,
	`icon` varchar(64),
	`default_route` varchar(200),
	`api_prefix` varchar(64),
	`sort` int NOT NULL DEFAULT 0,
	`enabled` boolean NOT NULL DEFAULT true,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false,
	`code_live` varchar(64) GENERATED ALWAYS AS (case when is_delete = 0 then lower(code) end) STORED,
	CONSTRAINT `sys_module_code_live_uq` UNIQUE INDEX(`code_live`)
);
--> statement-breakpoint
ALTER TABLE `sys_menu` ADD `module_id` bigint;--> statement-breakpoint
ALTER TABLE `sys_user` ADD `default_module_id` bigint;