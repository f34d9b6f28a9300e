CREATE TABLE `sys_user_passkey` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`user_id` integer NOT NULL,
	`credential_id` text(700) NOT NULL,
	`public_key` text(2048) NOT NULL,
	`sign_count` integer DEFAULT 0 NOT NULL,
	`transports` text(255),
	`aaguid` text(36),
	`name` text(64) NOT NULL,
	`backed_up` integer DEFAULT false NOT NULL,
	`create_time` integer NOT NULL,
	`last_used_time` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sys_user_passkey_credential_uq` ON `sys_user_passkey` (`credential_id`);--> statement-breakpoint
CREATE INDEX `sys_user_passkey_user_idx` ON `sys_user_passkey` (`user_id`,`id`);