CREATE TABLE [sys_notice] (
	[id] bigint IDENTITY(1, 1),
	[title] nvarchar(128) NOT NULL,
	[content] nvarchar(2000),
	[type] smallint NOT NULL,
	[receiver_type] smallint NOT NULL,
	[actions_json] nvarchar(max),
	[publish_time] datetime2(3) NOT NULL,
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [sys_notice_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [sys_notice_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [sys_notice_read] (
	[notice_id] bigint,
	[user_id] bigint,
	[read_time] datetime2(3) NOT NULL,
	CONSTRAINT [sys_notice_read_pkey] PRIMARY KEY([notice_id],[user_id])
);
--> statement-breakpoint
CREATE TABLE [sys_notice_receiver] (
	[notice_id] bigint,
	[receiver_id] bigint,
	CONSTRAINT [sys_notice_receiver_pkey] PRIMARY KEY([notice_id],[receiver_id])
);
--> statement-breakpoint
CREATE INDEX [sys_notice_live_kind_idx] ON [sys_notice] ([is_delete],[receiver_type],[id]);--> statement-breakpoint
CREATE INDEX [sys_notice_read_user_idx] ON [sys_notice_read] ([user_id],[notice_id]);--> statement-breakpoint
CREATE INDEX [sys_notice_receiver_receiver_idx] ON [sys_notice_receiver] ([receiver_id],[notice_id]);