CREATE TABLE `sys_config` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`config_key` varchar(128) NOT NULL,
	`config_value` mediumtext NOT NULL,
	`value_type` varchar(16) NOT NULL DEFAULT 'string',
	`name` varchar(128) NOT NULL,
	`built_in` boolean NOT NULL DEFAULT false,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	CONSTRAINT `sys_config_config_key_uq` UNIQUE INDEX(`config_key`)
);
--> statement-breakpoint
CREATE TABLE `sys_dict_item` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`type_id` bigint NOT NULL,
	`type_code` varchar(64) NOT NULL,
	`label` varchar(128) NOT NULL,
	`value` varchar(128) NOT NULL,
	`sort` int NOT NULL DEFAULT 0,
	`enabled` boolean NOT NULL DEFAULT true,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_dict_type` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`code` varchar(64) NOT NULL,
	`name` varchar(64) NOT NULL,
	`enabled` boolean NOT NULL DEFAULT true,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_exception_log` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`http_method` varchar(16) NOT NULL,
	`path` varchar(500) NOT NULL,
	`trace_id` varchar(64) NOT NULL,
	`exception_type` varchar(256) NOT NULL,
	`message` varchar(2000) NOT NULL,
	`stack_trace` mediumtext,
	`create_time` datetime(3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_file` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`original_name` varchar(255) NOT NULL,
	`storage_key` varchar(255) NOT NULL,
	`size_bytes` bigint NOT NULL,
	`content_type` varchar(128) NOT NULL,
	`ext` varchar(32) NOT NULL,
	`sha256` char(64) NOT NULL,
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_high_sensitivity_permission` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`permission_code` varchar(200) NOT NULL,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	CONSTRAINT `sys_high_sensitivity_permission_code_uq` UNIQUE INDEX(`permission_code`)
);
--> statement-breakpoint
CREATE TABLE `sys_login_log` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`account` varchar(128) NOT NULL,
	`success` boolean NOT NULL,
	`result_code` int NOT NULL,
	`user_id` bigint,
	`ip` varchar(64),
	`user_agent` varchar(500),
	`create_time` datetime(3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_menu` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`parent_id` bigint NOT NULL DEFAULT 0,
	`type` varchar(16) NOT NULL,
	`title` varchar(64) NOT NULL,
	`permission` mediumtext,
	`path` varchar(200),
	`component` varchar(200),
	`icon` varchar(64),
	`sort` int NOT NULL DEFAULT 0,
	`enabled` boolean NOT NULL DEFAULT true,
	`hidden` boolean NOT NULL DEFAULT false,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_op_log` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`title` varchar(128) NOT NULL,
	`http_method` varchar(16) NOT NULL,
	`path` varchar(500) NOT NULL,
	`param_json` mediumtext,
	`result_code` int NOT NULL,
	`success` boolean NOT NULL,
	`elapsed_ms` int NOT NULL,
	`operator_id` bigint,
	`operator_name` varchar(64),
	`ip` varchar(64),
	`user_agent` varchar(500),
	`trace_id` varchar(64),
	`create_time` datetime(3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_org` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`parent_id` bigint NOT NULL DEFAULT 0,
	`name` varchar(64) NOT NULL,
	`code` varchar(64) NOT NULL,
	`sort` int NOT NULL DEFAULT 0,
	`enabled` boolean NOT NULL DEFAULT true,
	`leader` varchar(64),
	`phone` varchar(32),
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_password_history` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`user_id` bigint NOT NULL,
	`password_hash` varchar(255) NOT NULL,
	`create_time` datetime(3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_position` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`name` varchar(64) NOT NULL,
	`code` varchar(64) NOT NULL,
	`sort` int NOT NULL DEFAULT 0,
	`enabled` boolean NOT NULL DEFAULT true,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_refresh_token` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`session_id` varchar(36) NOT NULL,
	`token_hash` char(64) NOT NULL,
	`status` smallint NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	`create_time` datetime(3) NOT NULL,
	`used_time` datetime(3),
	CONSTRAINT `sys_refresh_token_token_hash_uq` UNIQUE INDEX(`token_hash`)
);
--> statement-breakpoint
CREATE TABLE `sys_role` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`name` varchar(64) NOT NULL,
	`code` varchar(64) NOT NULL,
	`data_scope` smallint NOT NULL DEFAULT 1,
	`sort` int NOT NULL DEFAULT 0,
	`enabled` boolean NOT NULL DEFAULT true,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_role_data_scope` (
	`role_id` bigint NOT NULL,
	`org_id` bigint NOT NULL,
	CONSTRAINT PRIMARY KEY(`role_id`,`org_id`)
);
--> statement-breakpoint
CREATE TABLE `sys_role_menu` (
	`role_id` bigint NOT NULL,
	`menu_id` bigint NOT NULL,
	CONSTRAINT PRIMARY KEY(`role_id`,`menu_id`)
);
--> statement-breakpoint
CREATE TABLE `sys_session` (
	`id` varchar(36) PRIMARY KEY,
	`user_id` bigint NOT NULL,
	`account` varchar(64) NOT NULL,
	`ip` varchar(64),
	`user_agent` varchar(500),
	`is_mfa` boolean NOT NULL DEFAULT false,
	`create_time` datetime(3) NOT NULL,
	`last_activity_time` datetime(3) NOT NULL,
	`absolute_expires_at` datetime(3),
	`revoked_at` datetime(3),
	`revoke_reason` varchar(64)
);
--> statement-breakpoint
CREATE TABLE `sys_totp_recovery_code` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`user_id` bigint NOT NULL,
	`code_hash` varchar(255) NOT NULL,
	`used_time` datetime(3),
	`create_time` datetime(3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_user` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`account` varchar(64) NOT NULL,
	`real_name` varchar(64) NOT NULL,
	`nick_name` varchar(64),
	`org_id` bigint,
	`position_id` bigint,
	`phone` varchar(32),
	`email` varchar(128),
	`gender` smallint NOT NULL DEFAULT 0,
	`avatar` varchar(500),
	`password` varchar(255) NOT NULL,
	`last_password_change_time` datetime(3),
	`must_change_password` boolean NOT NULL DEFAULT false,
	`force_totp` boolean NOT NULL DEFAULT false,
	`totp_secret` mediumtext,
	`totp_bound_time` datetime(3),
	`enabled` boolean NOT NULL DEFAULT true,
	`is_super_admin` boolean NOT NULL DEFAULT false,
	`last_login_time` datetime(3),
	`last_login_ip` varchar(64),
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_user_role` (
	`user_id` bigint NOT NULL,
	`role_id` bigint NOT NULL,
	CONSTRAINT PRIMARY KEY(`user_id`,`role_id`)
);
--> statement-breakpoint
CREATE INDEX `sys_dict_item_type_code_idx` ON `sys_dict_item` (`type_code`);--> statement-breakpoint
CREATE INDEX `sys_dict_item_type_id_idx` ON `sys_dict_item` (`type_id`);--> statement-breakpoint
CREATE INDEX `sys_dict_type_code_idx` ON `sys_dict_type` (`code`);--> statement-breakpoint
CREATE INDEX `sys_exception_log_create_time_idx` ON `sys_exception_log` (`create_time`);--> statement-breakpoint
CREATE INDEX `sys_file_storage_key_idx` ON `sys_file` (`storage_key`);--> statement-breakpoint
CREATE INDEX `sys_login_log_create_time_idx` ON `sys_login_log` (`create_time`);--> statement-breakpoint
CREATE INDEX `sys_menu_parent_id_idx` ON `sys_menu` (`parent_id`);--> statement-breakpoint
CREATE INDEX `sys_op_log_create_time_idx` ON `sys_op_log` (`create_time`);--> statement-breakpoint
CREATE INDEX `sys_org_parent_id_idx` ON `sys_org` (`parent_id`);--> statement-breakpoint
CREATE INDEX `sys_password_history_user_id_idx` ON `sys_password_history` (`user_id`);--> statement-breakpoint
CREATE INDEX `sys_refresh_token_session_id_idx` ON `sys_refresh_token` (`session_id`);--> statement-breakpoint
CREATE INDEX `sys_role_menu_menu_id_idx` ON `sys_role_menu` (`menu_id`);--> statement-breakpoint
CREATE INDEX `sys_session_user_id_idx` ON `sys_session` (`user_id`);--> statement-breakpoint
CREATE INDEX `sys_totp_recovery_code_user_id_idx` ON `sys_totp_recovery_code` (`user_id`);--> statement-breakpoint
CREATE INDEX `sys_user_account_idx` ON `sys_user` (`account`);--> statement-breakpoint
CREATE INDEX `sys_user_org_id_idx` ON `sys_user` (`org_id`);--> statement-breakpoint
CREATE INDEX `sys_user_role_role_id_idx` ON `sys_user_role` (`role_id`);