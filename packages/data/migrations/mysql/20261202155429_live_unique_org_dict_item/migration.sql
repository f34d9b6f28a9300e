ALTER TABLE `sys_dict_item` ADD `live_exempt` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sys_dict_item` ADD `value_live` varchar(128) GENERATED ALWAYS AS (case when is_delete = 0 and live_exempt = 0 then value end) STORED;--> statement-breakpoint
ALTER TABLE `sys_org` ADD `live_exempt` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sys_org` ADD `code_live` varchar(64) GENERATED ALWAYS AS (case when is_delete = 0 and live_exempt = 0 and code <> '' then lower(code) end) STORED;--> statement-breakpoint
-- A row whose key an older live row (lower id) already holds stays, exempt from the unique index.
UPDATE `sys_org` a JOIN `sys_org` b ON b.`is_delete` = 0 AND lower(b.`code`) = lower(a.`code`) AND b.`id` < a.`id` SET a.`live_exempt` = 1 WHERE a.`is_delete` = 0 AND a.`code` <> '';--> statement-breakpoint
UPDATE `sys_dict_item` a JOIN `sys_dict_item` b ON b.`is_delete` = 0 AND b.`type_id` = a.`type_id` AND b.`value` = a.`value` AND b.`id` < a.`id` SET a.`live_exempt` = 1 WHERE a.`is_delete` = 0;--> statement-breakpoint
CREATE UNIQUE INDEX `sys_dict_item_value_live_uq` ON `sys_dict_item` (`type_id`,`value_live`);--> statement-breakpoint
CREATE UNIQUE INDEX `sys_org_code_live_uq` ON `sys_org` (`code_live`);