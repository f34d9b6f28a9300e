CREATE TABLE `sys_job` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`code` varchar(64) NOT NULL,
	`name` varchar(128) NOT NULL,
	`handler_kind` smallint NOT NULL,
	`handler_name` varchar(128) NOT NULL,
	`props_json` mediumtext,
	`trigger_kind` smallint NOT NULL,
	`cron_expression` varchar(128),
	`interval_seconds` int,
	`one_shot_time` datetime(3),
	`start_time` datetime(3),
	`end_time` datetime(3),
	`misfire_strategy` varchar(16) NOT NULL DEFAULT 'skip',
	`concurrency_mode` varchar(16) NOT NULL DEFAULT 'serial-skip',
	`status` smallint NOT NULL DEFAULT 1,
	`next_run_time` datetime(3),
	`last_run_time` datetime(3),
	`number_of_runs` int NOT NULL DEFAULT 0,
	`number_of_errors` int NOT NULL DEFAULT 0,
	`consecutive_errors` int NOT NULL DEFAULT 0,
	`timeout_seconds` int NOT NULL DEFAULT 0,
	`retry_count` int NOT NULL DEFAULT 0,
	`retry_interval_seconds` int NOT NULL DEFAULT 0,
	`fail_alert_threshold` int NOT NULL DEFAULT 0,
	`alert_by_notice` boolean NOT NULL DEFAULT false,
	`is_system` boolean NOT NULL DEFAULT false,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false,
	`code_live` varchar(64) GENERATED ALWAYS AS (case when is_delete = 0 then code end) STORED,
	CONSTRAINT `sys_job_code_live_uq` UNIQUE INDEX(`code_live`)
);
--> statement-breakpoint
CREATE TABLE `sys_job_log` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`job_id` bigint NOT NULL,
	`job_name` varchar(128) NOT NULL,
	`fire_instance_id` varchar(96) NOT NULL,
	`retry_index` int NOT NULL DEFAULT 0,
	`fire_mode` varchar(16) NOT NULL,
	`scheduled_time` datetime(3) NOT NULL,
	`start_time` datetime(3) NOT NULL,
	`end_time` datetime(3),
	`run_status` varchar(16) NOT NULL,
	`elapsed_ms` int NOT NULL DEFAULT 0,
	`node_name` varchar(128) NOT NULL,
	`kill_requested` boolean NOT NULL DEFAULT false,
	`message_text` mediumtext,
	`error_text` mediumtext,
	CONSTRAINT `sys_job_log_fire_uq` UNIQUE INDEX(`fire_instance_id`,`retry_index`)
);
--> statement-breakpoint
CREATE INDEX `sys_job_code_idx` ON `sys_job` (`code`);--> statement-breakpoint
CREATE INDEX `sys_job_log_job_id_idx` ON `sys_job_log` (`job_id`,`id`);--> statement-breakpoint
CREATE INDEX `sys_job_log_start_time_idx` ON `sys_job_log` (`start_time`);