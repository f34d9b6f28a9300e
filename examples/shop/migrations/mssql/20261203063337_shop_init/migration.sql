CREATE TABLE [shop_category] (
	[id] bigint IDENTITY(1, 1),
	[name] nvarchar(64) NOT NULL,
	[code] nvarchar(64) NOT NULL,
	[sort] int NOT NULL CONSTRAINT [shop_category_sort_default] DEFAULT ((0)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [shop_category_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [shop_category_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE TABLE [shop_product] (
	[id] bigint IDENTITY(1, 1),
	[category_id] bigint NOT NULL,
	[org_id] bigint NOT NULL,
	[name] nvarchar(128) NOT NULL,
	[code] nvarchar(64) NOT NULL,
	[price_cents] bigint NOT NULL CONSTRAINT [shop_product_price_cents_default] DEFAULT ((0)),
	[stock] int NOT NULL CONSTRAINT [shop_product_stock_default] DEFAULT ((0)),
	[enabled] bit NOT NULL CONSTRAINT [shop_product_enabled_default] DEFAULT ((1)),
	[remark] nvarchar(500),
	[create_time] datetime2(3) NOT NULL,
	[create_user_id] bigint,
	[update_time] datetime2(3),
	[update_user_id] bigint,
	[is_delete] bit NOT NULL CONSTRAINT [shop_product_is_delete_default] DEFAULT ((0)),
	CONSTRAINT [shop_product_pkey] PRIMARY KEY([id])
);
--> statement-breakpoint
CREATE INDEX [shop_category_live_idx] ON [shop_category] ([is_delete],[sort],[id]);--> statement-breakpoint
CREATE INDEX [shop_product_org_live_idx] ON [shop_product] ([org_id],[is_delete],[id]);--> statement-breakpoint
CREATE INDEX [shop_product_category_idx] ON [shop_product] ([category_id]);