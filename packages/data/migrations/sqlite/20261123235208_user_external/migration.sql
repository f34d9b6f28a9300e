CREATE TABLE `sys_user_external` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`user_id` integer NOT NULL,
	`provider` text(64) NOT NULL,
	`subject` text(255) NOT NULL,
	`display_name` text(128),
	`create_time` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sys_user_external_provider_subject_uq` ON `sys_user_external` (`provider`,`subject`);--> statement-breakpoint
CREATE INDEX `sys_user_external_user_id_idx` ON `sys_user_external` (`user_id`);