DROP INDEX "sys_config_config_key_uq";--> statement-breakpoint
ALTER TABLE "sys_config" ADD COLUMN "is_delete" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_config" ADD COLUMN "config_key_live" varchar(128) GENERATED ALWAYS AS (case when is_delete then null else config_key end) STORED;--> statement-breakpoint
CREATE INDEX "sys_config_config_key_idx" ON "sys_config" ("config_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sys_config_config_key_live_uq" ON "sys_config" ("config_key_live");