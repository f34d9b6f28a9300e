CREATE TABLE `shop_category` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`name` text(64) NOT NULL,
	`code` text(64) NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `shop_product` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`category_id` integer NOT NULL,
	`org_id` integer NOT NULL,
	`name` text(128) NOT NULL,
	`code` text(64) NOT NULL,
	`price_cents` integer DEFAULT 0 NOT NULL,
	`stock` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`remark` text(500),
	`create_time` integer NOT NULL,
	`create_user_id` integer,
	`update_time` integer,
	`update_user_id` integer,
	`is_delete` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shop_category_live_idx` ON `shop_category` (`is_delete`,`sort`,`id`);--> statement-breakpoint
CREATE INDEX `shop_product_org_live_idx` ON `shop_product` (`org_id`,`is_delete`,`id`);--> statement-breakpoint
CREATE INDEX `shop_product_category_idx` ON `shop_product` (`category_id`);