ALTER TABLE [sys_dict_item] ADD [live_exempt] bit NOT NULL CONSTRAINT [sys_dict_item_live_exempt_default] DEFAULT ((0));--> statement-breakpoint
ALTER TABLE [sys_dict_item] ADD [value_live] AS (case when is_delete = 0 and live_exempt = 0 then value end) PERSISTED;--> statement-breakpoint
ALTER TABLE [sys_org] ADD [live_exempt] bit NOT NULL CONSTRAINT [sys_org_live_exempt_default] DEFAULT ((0));--> statement-breakpoint
ALTER TABLE [sys_org] ADD [code_live] AS (case when is_delete = 0 and live_exempt = 0 and code <> '' then lower(code) end) PERSISTED;--> statement-breakpoint
-- A row whose key an older live row (lower id) already holds stays, exempt from the unique index.
UPDATE [sys_org] SET [live_exempt] = 1 WHERE [is_delete] = 0 AND [code] <> '' AND EXISTS (SELECT 1 FROM [sys_org] o WHERE o.[is_delete] = 0 AND lower(o.[code]) = lower([sys_org].[code]) AND o.[id] < [sys_org].[id]);--> statement-breakpoint
UPDATE [sys_dict_item] SET [live_exempt] = 1 WHERE [is_delete] = 0 AND EXISTS (SELECT 1 FROM [sys_dict_item] i WHERE i.[is_delete] = 0 AND i.[type_id] = [sys_dict_item].[type_id] AND i.[value] = [sys_dict_item].[value] AND i.[id] < [sys_dict_item].[id]);--> statement-breakpoint
CREATE UNIQUE INDEX [sys_dict_item_value_live_uq] ON [sys_dict_item] ([type_id],[value]) WHERE is_delete = 0 and live_exempt = 0;--> statement-breakpoint
CREATE UNIQUE INDEX [sys_org_code_live_uq] ON [sys_org] ([code]) WHERE is_delete = 0 and live_exempt = 0 and code <> '';