CREATE TABLE [sys_config] (
	[id] bigint IDENTITY(1, 1),
	[config_key] nvarchar(128) NOT NULL,
	[config_value] nvarchar(max) NOT NULL,
	[value_type] nvarchar(16) NOT NULL CONSTRAINT [sys_config_value_type_default] DEFAULT ('string'),
	[name] nvarchar(128) NOT NULL,
	[built_in] bit NOT NULL CONSTRAINT [sys_config_built_in_default] DEFAULT ((0)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	CONSTRAINT [sys_config_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_dict_item] (
	[id] bigint IDENTITY(1, 1),
	[type_id] bigint NOT NULL,
	[type_code] nvarchar(64) NOT NULL,
	[label] nvarchar(128) NOT NULL,
	[value] nvarchar(128) NOT NULL,
	[sort] int NOT NULL CONSTRAINT [sys_dict_item_sort_default] DEFAULT ((0)),
	[enabled] bit NOT NULL CONSTRAINT [sys_dict_item_enabled_default] DEFAULT ((1)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_dict_item_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_dict_item_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_dict_type] (
	[id] bigint IDENTITY(1, 1),
	[code] nvarchar(64) NOT NULL,
	[name] nvarchar(64) NOT NULL,
	[enabled] bit NOT NULL CONSTRAINT [sys_dict_type_enabled_default] DEFAULT ((1)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_dict_type_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_dict_type_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_exception_log] (
	[id] bigint IDENTITY(1, 1),
	[http_method] nvarchar(16) NOT NULL,
	[path] nvarchar(500) NOT NULL,
	[trace_id] nvarchar(64) NOT NULL,
	[exception_type] nvarchar(256) NOT NULL,
	[message] nvarchar(2000) NOT NULL,
	[stack_trace] nvarchar(max),
	[create_time] datetime2(3) NOT NULL,
	CONSTRAINT [sys_exception_log_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_file] (
	[id] bigint IDENTITY(1, 1),
	[original_name] nvarchar(255) NOT NULL,
	[storage_key] nvarchar(255) NOT NULL,
	[size_bytes] bigint NOT NULL,
	[content_type] nvarchar(128) NOT NULL,
	[ext] nvarchar(32) NOT NULL,
	[sha256] char(64) NOT NULL,
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_file_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_file_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_high_sensitivity_permission] (
	[id] bigint IDENTITY(1, 1),
	[permission_code] nvarchar(200) NOT NULL,
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	CONSTRAINT [sys_high_sensitivity_permission_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_login_log] (
	[id] bigint IDENTITY(1, 1),
	[account] nvarchar(128) NOT NULL,
	[success] bit NOT NULL,
	[result_code] int NOT NULL,
	[user_id] bigint,
	[ip] nvarchar(64),
	[user_agent] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	CONSTRAINT [sys_login_log_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_menu] (
	[id] bigint IDENTITY(1, 1),
	[parent_id] bigint NOT NULL CONSTRAINT [sys_menu_parent_id_default] DEFAULT ((0)),
	[type] nvarchar(16) NOT NULL,
	[title] nvarchar(64) NOT NULL,
	[permission] nvarchar(max),
	[path] nvarchar(200),
	[component] nvarchar(200),
	[icon] nvarchar(64),
	[sort] int NOT NULL CONSTRAINT [sys_menu_sort_default] DEFAULT ((0)),
	[enabled] bit NOT NULL CONSTRAINT [sys_menu_enabled_default] DEFAULT ((1)),
	[hidden] bit NOT NULL CONSTRAINT [sys_menu_hidden_default] DEFAULT ((0)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_menu_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_menu_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_op_log] (
	[id] bigint IDENTITY(1, 1),
	[title] nvarchar(128) NOT NULL,
	[http_method] nvarchar(16) NOT NULL,
	[path] nvarchar(500) NOT NULL,
	[param_json] nvarchar(max),
	[result_code] int NOT NULL,
	[success] bit NOT NULL,
	[elapsed_ms] int NOT NULL,
	[operator_id] bigint,
	[operator_name] nvarchar(64),
	[ip] nvarchar(64),
	[user_agent] nvarchar(500),
	[trace_id] nvarchar(64),
	[create_time] datetime2(3) NOT NULL,
	CONSTRAINT [sys_op_log_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_org] (
	[id] bigint IDENTITY(1, 1),
	[parent_id] bigint NOT NULL CONSTRAINT [sys_org_parent_id_default] DEFAULT ((0)),
	[name] nvarchar(64) NOT NULL,
	[code] nvarchar(64) NOT NULL,
	[sort] int NOT NULL CONSTRAINT [sys_org_sort_default] DEFAULT ((0)),
	[enabled] bit NOT NULL CONSTRAINT [sys_org_enabled_default] DEFAULT ((1)),
	[leader] nvarchar(64),
	[phone] nvarchar(32),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_org_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_org_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_password_history] (
	[id] bigint IDENTITY(1, 1),
	[user_id] bigint NOT NULL,
	[password_hash] nvarchar(255) NOT NULL,
	[create_time] datetime2(3) NOT NULL,
	CONSTRAINT [sys_password_history_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_position] (
	[id] bigint IDENTITY(1, 1),
	[name] nvarchar(64) NOT NULL,
	[code] nvarchar(64) NOT NULL,
	[sort] int NOT NULL CONSTRAINT [sys_position_sort_default] DEFAULT ((0)),
	[enabled] bit NOT NULL CONSTRAINT [sys_position_enabled_default] DEFAULT ((1)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_position_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_position_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_refresh_token] (
	[id] bigint IDENTITY(1, 1),
	[session_id] nvarchar(36) NOT NULL,
	[token_hash] char(64) NOT NULL,
	[status] smallint NOT NULL,
	[expires_at] datetime2(3) NOT NULL,
	[create_time] datetime2(3) NOT NULL,
	[used_time] datetime2(3),
	CONSTRAINT [sys_refresh_token_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_role] (
	[id] bigint IDENTITY(1, 1),
	[name] nvarchar(64) NOT NULL,
	[code] nvarchar(64) NOT NULL,
	[data_scope] smallint NOT NULL CONSTRAINT [sys_role_data_scope_default] DEFAULT ((1)),
	[sort] int NOT NULL CONSTRAINT [sys_role_sort_default] DEFAULT ((0)),
	[enabled] bit NOT NULL CONSTRAINT [sys_role_enabled_default] DEFAULT ((1)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_role_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_role_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_role_data_scope] (
	[role_id] bigint,
	[org_id] bigint,
	CONSTRAINT [sys_role_data_scope_pkey] PRIMARY KEY([role_id],[org_id])
);
--> statement-breakpoint
CREATE TABLE [sys_role_menu] (
	[role_id] bigint,
	[menu_id] bigint,
	CONSTRAINT [sys_role_menu_pkey] PRIMARY KEY([role_id],[menu_id])
);
--> statement-breakpoint
CREATE TABLE [sys_session] (
	[id] nvarchar(36),
	[user_id] bigint NOT NULL,
	[account] nvarchar(64) NOT NULL,
	[ip] nvarchar(64),
	[user_agent] nvarchar(500),
	[is_mfa] bit NOT NULL CONSTRAINT [sys_session_is_mfa_default] DEFAULT ((0)),
	[create_time] datetime2(3) NOT NULL,
	[last_activity_time] datetime2(3) NOT NULL,
	[absolute_expires_at] datetime2(3),
	[revoked_at] datetime2(3),
	[revoke_reason] nvarchar(64),
	CONSTRAINT [sys_session_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_totp_recovery_code] (
	[id] bigint IDENTITY(1, 1),
	[user_id] bigint NOT NULL,
	[code_hash] nvarchar(255) NOT NULL,
	[used_time] datetime2(3),
	[create_time] datetime2(3) NOT NULL,
	CONSTRAINT [sys_totp_recovery_code_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_user] (
	[id] bigint IDENTITY(1, 1),
	[account] nvarchar(64) NOT NULL,
	[real_name] nvarchar(64) NOT NULL,
	[nick_name] nvarchar(64),
	[org_id] bigint,
	[position_id] bigint,
	[phone] nvarchar(32),
	[email] nvarchar(128),
	[gender] smallint NOT NULL CONSTRAINT [sys_user_gender_default] DEFAULT ((0)),
	[avatar] nvarchar(500),
	[password] nvarchar(255) NOT NULL,
	[last_password_change_time] datetime2(3),
	[must_change_password] bit NOT NULL CONSTRAINT [sys_user_must_change_password_default] DEFAULT ((0)),
	[force_totp] bit NOT NULL CONSTRAINT [sys_user_force_totp_default] DEFAULT ((0)),
	[totp_secret] nvarchar(max),
	[totp_bound_time] datetime2(3),
	[enabled] bit NOT NULL CONSTRAINT [sys_user_enabled_default] DEFAULT ((1)),
	[is_super_admin] bit NOT NULL CONSTRAINT [sys_user_is_super_admin_default] DEFAULT ((0)),
	[last_login_time] datetime2(3),
	[last_login_ip] nvarchar(64),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_user_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_user_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_user_role] (
	[user_id] bigint,
	[role_id] bigint,
	CONSTRAINT [sys_user_role_pkey] PRIMARY KEY([user_id],[role_id])
);
--> statement-breakpoint
CREATE UNIQUE INDEX [sys_config_config_key_uq] ON [sys_config] ([config_key]);--> statement-breakpoint
CREATE INDEX [sys_dict_item_type_code_idx] ON [sys_dict_item] ([type_code]);--> statement-breakpoint
CREATE INDEX [sys_dict_item_type_id_idx] ON [sys_dict_item] ([type_id]);--> statement-breakpoint
CREATE INDEX [sys_dict_type_code_idx] ON [sys_dict_type] ([code]);--> statement-breakpoint
CREATE INDEX [sys_exception_log_create_time_idx] ON [sys_exception_log] ([create_time]);--> statement-breakpoint
CREATE INDEX [sys_file_storage_key_idx] ON [sys_file] ([storage_key]);--> statement-breakpoint
CREATE UNIQUE INDEX [sys_high_sensitivity_permission_code_uq] ON [sys_high_sensitivity_permission] ([permission_code]);--> statement-breakpoint
CREATE INDEX [sys_login_log_create_time_idx] ON [sys_login_log] ([create_time]);--> statement-breakpoint
CREATE INDEX [sys_menu_parent_id_idx] ON [sys_menu] ([parent_id]);--> statement-breakpoint
CREATE INDEX [sys_op_log_create_time_idx] ON [sys_op_log] ([create_time]);--> statement-breakpoint
CREATE INDEX [sys_org_parent_id_idx] ON [sys_org] ([parent_id]);--> statement-breakpoint
CREATE INDEX [sys_password_history_user_id_idx] ON [sys_password_history] ([user_id]);--> statement-breakpoint
CREATE UNIQUE INDEX [sys_refresh_token_token_hash_uq] ON [sys_refresh_token] ([token_hash]);--> statement-breakpoint
CREATE INDEX [sys_refresh_token_session_id_idx] ON [sys_refresh_token] ([session_id]);--> statement-breakpoint
CREATE INDEX [sys_role_menu_menu_id_idx] ON [sys_role_menu] ([menu_id]);--> statement-breakpoint
CREATE INDEX [sys_session_user_id_idx] ON [sys_session] ([user_id]);--> statement-breakpoint
CREATE INDEX [sys_totp_recovery_code_user_id_idx] ON [sys_totp_recovery_code] ([user_id]);--> statement-breakpoint
CREATE INDEX [sys_user_account_idx] ON [sys_user] ([account]);--> statement-breakpoint
CREATE INDEX [sys_user_org_id_idx] ON [sys_user] ([org_id]);--> statement-breakpoint
CREATE INDEX [sys_user_role_role_id_idx] ON [sys_user_role] ([role_id]);