CREATE TABLE "sys_counter" (
	"name" varchar(64) PRIMARY KEY,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "sys_counter" ("name", "value") SELECT 'sys_user.live', COUNT(*) FROM "sys_user" WHERE "is_delete" = false;--> statement-breakpoint
CREATE FUNCTION "sys_user_live_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		IF NOT NEW.is_delete THEN
			UPDATE sys_counter SET value = value + 1 WHERE name = 'sys_user.live';
		END IF;
	ELSIF TG_OP = 'DELETE' THEN
		IF NOT OLD.is_delete THEN
			UPDATE sys_counter SET value = value - 1 WHERE name = 'sys_user.live';
		END IF;
	ELSIF OLD.is_delete IS DISTINCT FROM NEW.is_delete THEN
		UPDATE sys_counter SET value = value + CASE WHEN NEW.is_delete THEN -1 ELSE 1 END WHERE name = 'sys_user.live';
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sys_user_live_count" AFTER INSERT OR DELETE OR UPDATE OF "is_delete" ON "sys_user"
	FOR EACH ROW EXECUTE FUNCTION "sys_user_live_count"();
