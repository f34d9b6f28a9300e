CREATE TABLE [sys_module] (
	[id] bigint IDENTITY(1, 1),
	[code] nvarchar(64) NOT NULL,
	[title] nvarchar(64) NOT NULL,
	[icon] nvarchar(64),
	[default_route] nvarchar(200),
	[api_prefix] nvarchar(64),
	[sort] int NOT NULL CONSTRAINT [sys_module_sort_default] DEFAULT ((0)),
	[enabled] bit NOT NULL CONSTRAINT [sys_module_enabled_default] DEFAULT ((1)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_module_is_delete_default] DEFAULT ((0)),
	[code_live]  AS (case when is_delete = 0 then lower(code) end) PERSISTED,
	CONSTRAINT [sys_module_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
ALTER TABLE [sys_menu] ADD [module_id] bigint;--> statement-breakpoint
ALTER TABLE [sys_user] ADD [default_module_id] bigint;--> statement-breakpoint
CREATE UNIQUE INDEX [sys_module_code_live_uq] ON [sys_module] ([code]) WHERE is_delete = 0;