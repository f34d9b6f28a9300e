CREATE TABLE `sys_counter` (
	`name` text(64) PRIMARY KEY,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `sys_counter` (`name`, `value`) SELECT 'sys_user.live', COUNT(*) FROM `sys_user` WHERE `is_delete` = 0;--> statement-breakpoint
CREATE TRIGGER `sys_user_live_insert` AFTER INSERT ON `sys_user` WHEN NEW.`is_delete` = 0
BEGIN
	UPDATE `sys_counter` SET `value` = `value` + 1 WHERE `name` = 'sys_user.live';
END;--> statement-breakpoint
CREATE TRIGGER `sys_user_live_delete` AFTER DELETE ON `sys_user` WHEN OLD.`is_delete` = 0
BEGIN
	UPDATE `sys_counter` SET `value` = `value` - 1 WHERE `name` = 'sys_user.live';
END;--> statement-breakpoint
CREATE TRIGGER `sys_user_live_update` AFTER UPDATE OF `is_delete` ON `sys_user` WHEN OLD.`is_delete` <> NEW.`is_delete`
BEGIN
	UPDATE `sys_counter` SET `value` = `value` + (CASE WHEN NEW.`is_delete` = 0 THEN 1 ELSE -1 END) WHERE `name` = 'sys_user.live';
END;
