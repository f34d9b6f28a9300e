CREATE TABLE `sys_job` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`code` text(64) NOT NULL,
	`name` text(128) NOT NULL,
	`handler_kind` integer NOT NULL,
	`handler_name` text(128) NOT NULL,
	`props_json` text,
	`trigger_kind` integer NOT NULL,
	`cron_expression` text(128),
	`interval_seconds` integer,
	`one_shot_time` integer,
	`start_time` integer,
	`end_time` integer,
	`misfire_strategy` text(16) DEFAULT 'skip' NOT NULL,
	`concurrency_mode` text(16) DEFAULT 'serial-skip' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`next_run_time` integer,
	`last_run_time` integer,
	`number_of_runs` integer DEFAULT 0 NOT NULL,
	`number_of_errors` integer DEFAULT 0 NOT NULL,
	`consecutive_errors` integer DEFAULT 0 NOT NULL,
	`timeout_seconds` integer DEFAULT 0 NOT NULL,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`retry_interval_seconds` integer DEFAULT 0 NOT NULL,
	`fail_alert_threshold` integer DEFAULT 0 NOT NULL,
	`alert_by_notice` integer DEFAULT false NOT NULL,
	`is_system` integer DEFAULT false NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL,
	`code_live` text(64) GENERATED ALWAYS AS (case when is_delete = 0 then code end) VIRTUAL
);
--> statement-breakpoint
CREATE TABLE `sys_job_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`job_id` integer NOT NULL,
	`job_name` text(128) NOT NULL,
	`fire_instance_id` text(96) NOT NULL,
	`retry_index` integer DEFAULT 0 NOT NULL,
	`fire_mode` text(16) NOT NULL,
	`scheduled_time` integer NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer,
	`run_status` text(16) NOT NULL,
	`elapsed_ms` integer DEFAULT 0 NOT NULL,
	`node_name` text(128) NOT NULL,
	`kill_requested` integer DEFAULT false NOT NULL,
	`message_text` text,
	`error_text` text
);
--> statement-breakpoint
CREATE INDEX `sys_job_code_idx` ON `sys_job` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_job_code_live_uq` ON `sys_job` (`code_live`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_job_log_fire_uq` ON `sys_job_log` (`fire_instance_id`,`retry_index`);--> statement-breakpoint
CREATE INDEX `sys_job_log_job_id_idx` ON `sys_job_log` (`job_id`,`id`);--> statement-breakpoint
CREATE INDEX `sys_job_log_start_time_idx` ON `sys_job_log` (`start_time`);