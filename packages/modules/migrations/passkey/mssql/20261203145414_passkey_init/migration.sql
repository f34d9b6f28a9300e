CREATE TABLE [sys_user_passkey] (
	[id] bigint IDENTITY(1, 1),
	[user_id] bigint NOT NULL,
	[credential_id] nvarchar(700) NOT NULL,
	[public_key] nvarchar(2048) NOT NULL,
	[sign_count] bigint NOT NULL CONSTRAINT [sys_user_passkey_sign_count_default] DEFAULT ((0)),
	[transports] nvarchar(255),
	[aaguid] nvarchar(36),
	[name] nvarchar(64) NOT NULL,
	[backed_up] bit NOT NULL CONSTRAINT [sys_user_passkey_backed_up_default] DEFAULT ((0)),
	[create_time] datetime2(3) NOT NULL,
	[last_used_time] datetime2(3),
	CONSTRAINT [sys_user_passkey_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE UNIQUE INDEX [sys_user_passkey_credential_uq] ON [sys_user_passkey] ([credential_id]);--> statement-breakpoint
CREATE INDEX [sys_user_passkey_user_idx] ON [sys_user_passkey] ([user_id],[id]);