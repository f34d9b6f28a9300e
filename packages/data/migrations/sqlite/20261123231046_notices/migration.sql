CREATE TABLE `sys_notice` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`title` text(128) NOT NULL,
	`content` text(2000),
	`type` integer NOT NULL,
	`receiver_type` integer NOT NULL,
	`actions_json` text,
	`publish_time` integer NOT NULL,
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sys_notice_read` (
	`notice_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`read_time` integer NOT NULL,
	CONSTRAINT `sys_notice_read_pk` PRIMARY KEY(`notice_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `sys_notice_receiver` (
	`notice_id` integer NOT NULL,
	`receiver_id` integer NOT NULL,
	CONSTRAINT `sys_notice_receiver_pk` PRIMARY KEY(`notice_id`, `receiver_id`)
);
--> statement-breakpoint
CREATE INDEX `sys_notice_live_kind_idx` ON `sys_notice` (`is_delete`,`receiver_type`,`id`);--> statement-breakpoint
CREATE INDEX `sys_notice_read_user_idx` ON `sys_notice_read` (`user_id`,`notice_id`);--> statement-breakpoint
CREATE INDEX `sys_notice_receiver_receiver_idx` ON `sys_notice_receiver` (`receiver_id`,`notice_id`);