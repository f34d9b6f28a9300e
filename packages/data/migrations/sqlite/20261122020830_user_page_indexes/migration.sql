CREATE INDEX `sys_user_live_idx` ON `sys_user` (`is_delete`,`id`);--> statement-breakpoint
CREATE INDEX `sys_user_org_live_idx` ON `sys_user` (`org_id`,`is_delete`,`enabled`,`id`);