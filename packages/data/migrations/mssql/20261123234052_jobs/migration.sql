CREATE TABLE [sys_job] (
	[id] bigint IDENTITY(1, 1),
	[code] nvarchar(64) NOT NULL,
	[name] nvarchar(128) NOT NULL,
	[handler_kind] smallint NOT NULL,
	[handler_name] nvarchar(128) NOT NULL,
	[props_json] nvarchar(max),
	[trigger_kind] smallint NOT NULL,
	[cron_expression] nvarchar(128),
	[interval_seconds] int,
	[one_shot_time] datetime2(3),
	[start_time] datetime2(3),
	[end_time] datetime2(3),
	[misfire_strategy] nvarchar(16) NOT NULL CONSTRAINT [sys_job_misfire_strategy_default] DEFAULT ('skip'),
	[concurrency_mode] nvarchar(16) NOT NULL CONSTRAINT [sys_job_concurrency_mode_default] DEFAULT ('serial-skip'),
	[status] smallint NOT NULL CONSTRAINT [sys_job_status_default] DEFAULT ((1)),
	[next_run_time] datetime2(3),
	[last_run_time] datetime2(3),
	[number_of_runs] int NOT NULL CONSTRAINT [sys_job_number_of_runs_default] DEFAULT ((0)),
	[number_of_errors] int NOT NULL CONSTRAINT [sys_job_number_of_errors_default] DEFAULT ((0)),
	[consecutive_errors] int NOT NULL CONSTRAINT [sys_job_consecutive_errors_default] DEFAULT ((0)),
	[timeout_seconds] int NOT NULL CONSTRAINT [sys_job_timeout_seconds_default] DEFAULT ((0)),
	[retry_count] int NOT NULL CONSTRAINT [sys_job_retry_count_default] DEFAULT ((0)),
	[retry_interval_seconds] int NOT NULL CONSTRAINT [sys_job_retry_interval_seconds_default] DEFAULT ((0)),
	[fail_alert_threshold] int NOT NULL CONSTRAINT [sys_job_fail_alert_threshold_default] DEFAULT ((0)),
	[alert_by_notice] bit NOT NULL CONSTRAINT [sys_job_alert_by_notice_default] DEFAULT ((0)),
	[is_system] bit NOT NULL CONSTRAINT [sys_job_is_system_default] DEFAULT ((0)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_job_is_delete_default] DEFAULT ((0)),
	[code_live]  AS (case when is_delete = 0 then code end) PERSISTED,
	CONSTRAINT [sys_job_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_job_log] (
	[id] bigint IDENTITY(1, 1),
	[job_id] bigint NOT NULL,
	[job_name] nvarchar(128) NOT NULL,
	[fire_instance_id] nvarchar(96) NOT NULL,
	[retry_index] int NOT NULL CONSTRAINT [sys_job_log_retry_index_default] DEFAULT ((0)),
	[fire_mode] nvarchar(16) NOT NULL,
	[scheduled_time] datetime2(3) NOT NULL,
	[start_time] datetime2(3) NOT NULL,
	[end_time] datetime2(3),
	[run_status] nvarchar(16) NOT NULL,
	[elapsed_ms] int NOT NULL CONSTRAINT [sys_job_log_elapsed_ms_default] DEFAULT ((0)),
	[node_name] nvarchar(128) NOT NULL,
	[kill_requested] bit NOT NULL CONSTRAINT [sys_job_log_kill_requested_default] DEFAULT ((0)),
	[message_text] nvarchar(max),
	[error_text] nvarchar(max),
	CONSTRAINT [sys_job_log_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE INDEX [sys_job_code_idx] ON [sys_job] ([code]);--> statement-breakpoint
CREATE UNIQUE INDEX [sys_job_code_live_uq] ON [sys_job] ([code]) WHERE is_delete = 0;--> statement-breakpoint
CREATE UNIQUE INDEX [sys_job_log_fire_uq] ON [sys_job_log] ([fire_instance_id],[retry_index]);--> statement-breakpoint
CREATE INDEX [sys_job_log_job_id_idx] ON [sys_job_log] ([job_id],[id]);--> statement-breakpoint
CREATE INDEX [sys_job_log_start_time_idx] ON [sys_job_log] ([start_time]);