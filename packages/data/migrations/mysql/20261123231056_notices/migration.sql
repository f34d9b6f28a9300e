CREATE TABLE `sys_notice` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`title` varchar(128) NOT NULL,
	`content` varchar(2000),
	`type` smallint NOT NULL,
	`receiver_type` smallint NOT NULL,
	`actions_json` mediumtext,
	`publish_time` datetime(3) NOT NULL,
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `sys_notice_read` (
	`notice_id` bigint NOT NULL,
	`user_id` bigint NOT NULL,
	`read_time` datetime(3) NOT NULL,
	CONSTRAINT PRIMARY KEY(`notice_id`,`user_id`)
);
--> statement-breakpoint
CREATE TABLE `sys_notice_receiver` (
	`notice_id` bigint NOT NULL,
	`receiver_id` bigint NOT NULL,
	CONSTRAINT PRIMARY KEY(`notice_id`,`receiver_id`)
);
--> statement-breakpoint
CREATE INDEX `sys_notice_live_kind_idx` ON `sys_notice` (`is_delete`,`receiver_type`,`id`);--> statement-breakpoint
CREATE INDEX `sys_notice_read_user_idx` ON `sys_notice_read` (`user_id`,`notice_id`);--> statement-breakpoint
CREATE INDEX `sys_notice_receiver_receiver_idx` ON `sys_notice_receiver` (`receiver_id`,`notice_id`);