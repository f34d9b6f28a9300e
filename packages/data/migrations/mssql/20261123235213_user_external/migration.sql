CREATE TABLE [sys_user_external] (
	[id] bigint IDENTITY(1, 1),
	[user_id] bigint NOT NULL,
	[provider] nvarchar(64) NOT NULL,
	[subject] nvarchar(255) NOT NULL,
	[display_name] nvarchar(128),
	[create_time] datetime2(3) NOT NULL,
	CONSTRAINT [sys_user_external_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE UNIQUE INDEX [sys_user_external_provider_subject_uq] ON [sys_user_external] ([provider],[subject]);--> statement-breakpoint
CREATE INDEX [sys_user_external_user_id_idx] ON [sys_user_external] ([user_id]);