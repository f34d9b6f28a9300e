ALTER TABLE "sys_dict_item" ADD COLUMN "live_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_dict_item" ADD COLUMN "value_live" varchar(128) GENERATED ALWAYS AS (case when is_delete or live_exempt then null else value end) STORED;--> statement-breakpoint
ALTER TABLE "sys_org" ADD COLUMN "live_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_org" ADD COLUMN "code_live" varchar(64) GENERATED ALWAYS AS (case when is_delete or live_exempt or code = '' then null else lower(code) end) STORED;--> statement-breakpoint
-- A row whose key an older live row (lower id) already holds stays, exempt from the unique index.
UPDATE "sys_org" SET "live_exempt" = true WHERE NOT "is_delete" AND "code" <> '' AND EXISTS (SELECT 1 FROM "sys_org" o WHERE NOT o."is_delete" AND lower(o."code") = lower("sys_org"."code") AND o."id" < "sys_org"."id");--> statement-breakpoint
UPDATE "sys_dict_item" SET "live_exempt" = true WHERE NOT "is_delete" AND EXISTS (SELECT 1 FROM "sys_dict_item" i WHERE NOT i."is_delete" AND i."type_id" = "sys_dict_item"."type_id" AND i."value" = "sys_dict_item"."value" AND i."id" < "sys_dict_item"."id");--> statement-breakpoint
CREATE UNIQUE INDEX "sys_dict_item_value_live_uq" ON "sys_dict_item" ("type_id","value_live");--> statement-breakpoint
CREATE UNIQUE INDEX "sys_org_code_live_uq" ON "sys_org" ("code_live");