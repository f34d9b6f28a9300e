ALTER TABLE [sys_dict_type] ADD [code_live] AS (case when is_delete = 0 then code end) PERSISTED;--> statement-breakpoint
ALTER TABLE [sys_role] ADD [code_live] AS (case when is_delete = 0 then lower(code) end) PERSISTED;--> statement-breakpoint
ALTER TABLE [sys_user] ADD [account_live] AS (case when is_delete = 0 then lower(account) end) PERSISTED;--> statement-breakpoint
CREATE UNIQUE INDEX [sys_dict_type_code_live_uq] ON [sys_dict_type] ([code]) WHERE is_delete = 0;--> statement-breakpoint
CREATE UNIQUE INDEX [sys_role_code_live_uq] ON [sys_role] ([code]) WHERE is_delete = 0;--> statement-breakpoint
CREATE UNIQUE INDEX [sys_user_account_live_uq] ON [sys_user] ([account]) WHERE is_delete = 0;