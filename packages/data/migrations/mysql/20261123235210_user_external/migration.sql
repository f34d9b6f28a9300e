CREATE TABLE `sys_user_external` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`user_id` bigint NOT NULL,
	`provider` varchar(64) NOT NULL,
	`subject` varchar(255) NOT NULL,
	`display_name` varchar(128),
	`create_time` datetime(3) NOT NULL,
	CONSTRAINT `sys_user_external_provider_subject_uq` UNIQUE INDEX(`provider`,`subject`)
);
--> statement-breakpoint
CREATE INDEX `sys_user_external_user_id_idx` ON `sys_user_external` (`user_id`);