CREATE TABLE `sys_user_passkey` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`user_id` bigint NOT NULL,
	`credential_id` varchar(700) NOT NULL,
	`public_key` varchar(2048) NOT NULL,
	`sign_count` bigint NOT NULL DEFAULT 0,
	`transports` varchar(255),
	`aaguid` varchar(36),
	`name` varchar(64) NOT NULL,
	`backed_up` boolean NOT NULL DEFAULT false,
	`create_time` datetime(3) NOT NULL,
	`last_used_time` datetime(3),
	CONSTRAINT `sys_user_passkey_credential_uq` UNIQUE INDEX(`credential_id`)
);
--> statement-breakpoint
CREATE INDEX `sys_user_passkey_user_idx` ON `sys_user_passkey` (`user_id`,`id`);