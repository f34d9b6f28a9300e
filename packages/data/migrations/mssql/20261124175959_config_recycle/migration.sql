DROP INDEX [sys_config_config_key_uq] ON [sys_config];--> statement-breakpoint
ALTER TABLE [sys_config] ADD [is_delete] bit NOT NULL CONSTRAINT [sys_config_is_delete_default] DEFAULT ((0));--> statement-breakpoint
ALTER TABLE [sys_config] ADD [config_key_live] AS (case when is_delete = 0 then config_key end) PERSISTED;--> statement-breakpoint
CREATE INDEX [sys_config_config_key_idx] ON [sys_config] ([config_key]);--> statement-breakpoint
CREATE UNIQUE INDEX [sys_config_config_key_live_uq] ON [sys_config] ([config_key]) WHERE is_delete = 0;