CREATE TABLE [sys_counter] (
	[name] nvarchar(64),
	[value] bigint NOT NULL CONSTRAINT [sys_counter_value_default] DEFAULT ((0)),
	CONSTRAINT [sys_counter_pkey] PRIMARY KEY([name])
);
--> statement-breakpoint
INSERT INTO [sys_counter] ([name], [value]) SELECT N'sys_user.live', COUNT_BIG(*) FROM [sys_user] WHERE [is_delete] = 0;--> statement-breakpoint
CREATE TRIGGER [sys_user_live_count] ON [sys_user] AFTER INSERT, UPDATE, DELETE AS
BEGIN
	SET NOCOUNT ON;
	DECLARE @delta bigint =
		(SELECT COUNT_BIG(*) FROM inserted WHERE [is_delete] = 0) - (SELECT COUNT_BIG(*) FROM deleted WHERE [is_delete] = 0);
	IF @delta <> 0
		UPDATE [sys_counter] SET [value] = [value] + @delta WHERE [name] = N'sys_user.live';
END;
