CREATE TABLE `sys_counter` (
	`name` varchar(64) PRIMARY KEY,
	`value` bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
INSERT INTO `sys_counter` (`name`, `value`) SELECT 'sys_user.live', COUNT(*) FROM `sys_user` WHERE `is_delete` = false;--> statement-breakpoint
CREATE TRIGGER `sys_user_live_insert` AFTER INSERT ON `sys_user` FOR EACH ROW
BEGIN
	IF NOT NEW.`is_delete` THEN
		UPDATE `sys_counter` SET `value` = `value` + 1 WHERE `name` = 'sys_user.live';
	END IF;
END;--> statement-breakpoint
CREATE TRIGGER `sys_user_live_delete` AFTER DELETE ON `sys_user` FOR EACH ROW
BEGIN
	IF NOT OLD.`is_delete` THEN
		UPDATE `sys_counter` SET `value` = `value` - 1 WHERE `name` = 'sys_user.live';
	END IF;
END;--> statement-breakpoint
CREATE TRIGGER `sys_user_live_update` AFTER UPDATE ON `sys_user` FOR EACH ROW
BEGIN
	IF NEW.`is_delete` <> OLD.`is_delete` THEN
		UPDATE `sys_counter` SET `value` = `value` + IF(NEW.`is_delete`, -1, 1) WHERE `name` = 'sys_user.live';
	END IF;
END;
