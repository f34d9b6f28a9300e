CREATE TABLE `shop_category` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`name` varchar(64) NOT NULL,
	`code` varchar(64) NOT NULL,
	`sort` int NOT NULL DEFAULT 0,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE TABLE `shop_product` (
	`id` bigint AUTO_INCREMENT PRIMARY KEY,
	`category_id` bigint NOT NULL,
	`org_id` bigint NOT NULL,
	`name` varchar(128) NOT NULL,
	`code` varchar(64) NOT NULL,
	`price_cents` bigint NOT NULL DEFAULT 0,
	`stock` int NOT NULL DEFAULT 0,
	`enabled` boolean NOT NULL DEFAULT true,
	`remark` varchar(500),
	`create_time` datetime(3) NOT NULL,
	`create_user_id` bigint,
	`update_time` datetime(3),
	`update_user_id` bigint,
	`is_delete` boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
CREATE INDEX `shop_category_live_idx` ON `shop_category` (`is_delete`,`sort`,`id`);--> statement-breakpoint
CREATE INDEX `shop_product_org_live_idx` ON `shop_product` (`org_id`,`is_delete`,`id`);--> statement-breakpoint
CREATE INDEX `shop_product_category_idx` ON `shop_product` (`category_id`);