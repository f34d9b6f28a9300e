CREATE TABLE `sys_config` (
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
	`update_user_id` integer
);
--> statement-breakpoint
CREATE TABLE `sys_dict_item` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`type_id` integer NOT NULL,
	`type_code` text(64) NOT NULL,
	`label` text(128) NOT NULL,
	`value` text(128) NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_dict_type` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`code` text(64) NOT NULL,
	`name` text(64) NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_exception_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`http_method` text(16) NOT NULL,
	`path` text(500) NOT NULL,
	`trace_id` text(64) NOT NULL,
	`exception_type` text(256) NOT NULL,
	`message` text(2000) NOT NULL,
	`stack_trace` text,
	`create_time` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_file` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`original_name` text(255) NOT NULL,
	`storage_key` text(255) NOT NULL,
	`size_bytes` integer NOT NULL,
	`content_type` text(128) NOT NULL,
	`ext` text(32) NOT NULL,
	`sha256` text(64) NOT NULL,
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_high_sensitivity_permission` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`permission_code` text(200) NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer
);
--> statement-breakpoint
CREATE TABLE `sys_login_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`account` text(128) NOT NULL,
	`success` integer NOT NULL,
	`result_code` integer NOT NULL,
	`user_id` integer,
	`ip` text(64),
	`user_agent` text(500),
	`create_time` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_menu` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`parent_id` integer DEFAULT 0 NOT NULL,
	`type` text(16) NOT NULL,
	`title` text(64) NOT NULL,
	`permission` text,
	`path` text(200),
	`component` text(200),
	`icon` text(64),
	`sort` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_op_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`title` text(128) NOT NULL,
	`http_method` text(16) NOT NULL,
	`path` text(500) NOT NULL,
	`param_json` text,
	`result_code` integer NOT NULL,
	`success` integer NOT NULL,
	`elapsed_ms` integer NOT NULL,
	`operator_id` integer,
	`operator_name` text(64),
	`ip` text(64),
	`user_agent` text(500),
	`trace_id` text(64),
	`create_time` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_org` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`parent_id` integer DEFAULT 0 NOT NULL,
	`name` text(64) NOT NULL,
	`code` text(64) NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`leader` text(64),
	`phone` text(32),
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_password_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`user_id` integer NOT NULL,
	`password_hash` text(255) NOT NULL,
	`create_time` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_position` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`name` text(64) NOT NULL,
	`code` text(64) NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_refresh_token` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`session_id` text(36) NOT NULL,
	`token_hash` text(64) NOT NULL,
	`status` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`create_time` integer NOT NULL,
	`used_time` integer
);
--> statement-breakpoint
CREATE TABLE `sys_role` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`name` text(64) NOT NULL,
	`code` text(64) NOT NULL,
	`data_scope` integer DEFAULT 1 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_role_data_scope` (
	`role_id` integer NOT NULL,
	`org_id` integer NOT NULL,
	CONSTRAINT `sys_role_data_scope_pk` PRIMARY KEY(`role_id`, `org_id`)
);
--> statement-breakpoint
CREATE TABLE `sys_role_menu` (
	`role_id` integer NOT NULL,
	`menu_id` integer NOT NULL,
	CONSTRAINT `sys_role_menu_pk` PRIMARY KEY(`role_id`, `menu_id`)
);
--> statement-breakpoint
CREATE TABLE `sys_session` (
	`id` text(36) PRIMARY KEY,
	`user_id` integer NOT NULL,
	`account` text(64) NOT NULL,
	`ip` text(64),
	`user_agent` text(500),
	`is_mfa` integer DEFAULT false NOT NULL,
	`create_time` integer NOT NULL,
	`last_activity_time` integer NOT NULL,
	`absolute_expires_at` integer,
	`revoked_at` integer,
	`revoke_reason` text(64)
);
--> statement-breakpoint
CREATE TABLE `sys_totp_recovery_code` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`user_id` integer NOT NULL,
	`code_hash` text(255) NOT NULL,
	`used_time` integer,
	`create_time` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_user` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`account` text(64) NOT NULL,
	`real_name` text(64) NOT NULL,
	`nick_name` text(64),
	`org_id` integer,
	`position_id` integer,
	`phone` text(32),
	`email` text(128),
	`gender` integer DEFAULT 0 NOT NULL,
	`avatar` text(500),
	`password` text(255) NOT NULL,
	`last_password_change_time` integer,
	`must_change_password` integer DEFAULT false NOT NULL,
	`force_totp` integer DEFAULT false NOT NULL,
	`totp_secret` text,
	`totp_bound_time` integer,
	`enabled` integer DEFAULT true NOT NULL,
	`is_super_admin` integer DEFAULT false NOT NULL,
	`last_login_time` integer,
	`last_login_ip` text(64),
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_user_role` (
	`user_id` integer NOT NULL,
	`role_id` integer NOT NULL,
	CONSTRAINT `sys_user_role_pk` PRIMARY KEY(`user_id`, `role_id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sys_config_config_key_uq` ON `sys_config` (`config_key`);--> statement-breakpoint
CREATE INDEX `sys_dict_item_type_code_idx` ON `sys_dict_item` (`type_code`);--> statement-breakpoint
CREATE INDEX `sys_dict_item_type_id_idx` ON `sys_dict_item` (`type_id`);--> statement-breakpoint
CREATE INDEX `sys_dict_type_code_idx` ON `sys_dict_type` (`code`);--> statement-breakpoint
CREATE INDEX `sys_exception_log_create_time_idx` ON `sys_exception_log` (`create_time`);--> statement-breakpoint
CREATE INDEX `sys_file_storage_key_idx` ON `sys_file` (`storage_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_high_sensitivity_permission_code_uq` ON `sys_high_sensitivity_permission` (`permission_code`);--> statement-breakpoint
CREATE INDEX `sys_login_log_create_time_idx` ON `sys_login_log` (`create_time`);--> statement-breakpoint
CREATE INDEX `sys_menu_parent_id_idx` ON `sys_menu` (`parent_id`);--> statement-breakpoint
CREATE INDEX `sys_op_log_create_time_idx` ON `sys_op_log` (`create_time`);--> statement-breakpoint
CREATE INDEX `sys_org_parent_id_idx` ON `sys_org` (`parent_id`);--> statement-breakpoint
CREATE INDEX `sys_password_history_user_id_idx` ON `sys_password_history` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_refresh_token_token_hash_uq` ON `sys_refresh_token` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sys_refresh_token_session_id_idx` ON `sys_refresh_token` (`session_id`);--> statement-breakpoint
CREATE INDEX `sys_role_menu_menu_id_idx` ON `sys_role_menu` (`menu_id`);--> statement-breakpoint
CREATE INDEX `sys_session_user_id_idx` ON `sys_session` (`user_id`);--> statement-breakpoint
CREATE INDEX `sys_totp_recovery_code_user_id_idx` ON `sys_totp_recovery_code` (`user_id`);--> statement-breakpoint
CREATE INDEX `sys_user_account_idx` ON `sys_user` (`account`);--> statement-breakpoint
CREATE INDEX `sys_user_org_id_idx` ON `sys_user` (`org_id`);--> statement-breakpoint
CREATE INDEX `sys_user_role_role_id_idx` ON `sys_user_role` (`role_id`);