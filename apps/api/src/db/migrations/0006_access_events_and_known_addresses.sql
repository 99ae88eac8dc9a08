CREATE TABLE "known_sign_in_addresses" (
	"account_id" uuid NOT NULL,
	"address" text NOT NULL,
	"last_success_at" timestamp with time zone NOT NULL,
	CONSTRAINT "known_sign_in_addresses_account_id_address_pk" PRIMARY KEY("account_id","address")
);
--> statement-breakpoint
ALTER TABLE "known_sign_in_addresses" ADD CONSTRAINT "known_sign_in_addresses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Changes that can end someone's access are announced on the channel bmet_access once their
-- transaction commits, to every server on this database: open live streams re-check at once.
CREATE FUNCTION "bmet_notify_access"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bmet_access', json_build_object('kind', TG_ARGV[0], 'id', NEW.id)::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_access_changed" AFTER UPDATE OF "revoked_at", "expires_at" ON "sessions"
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
  EXECUTE FUNCTION "bmet_notify_access"('session');
--> statement-breakpoint
CREATE TRIGGER "accounts_access_changed" AFTER UPDATE OF "disabled", "deleted_at", "role", "state", "dealer_id" ON "accounts"
  FOR EACH ROW WHEN (OLD.disabled IS DISTINCT FROM NEW.disabled OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.role IS DISTINCT FROM NEW.role OR OLD.state IS DISTINCT FROM NEW.state OR OLD.dealer_id IS DISTINCT FROM NEW.dealer_id)
  EXECUTE FUNCTION "bmet_notify_access"('account');
--> statement-breakpoint
CREATE TRIGGER "drivers_access_changed" AFTER UPDATE OF "franchise_id", "deleted_at", "state" ON "drivers"
  FOR EACH ROW WHEN (OLD.franchise_id IS DISTINCT FROM NEW.franchise_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION "bmet_notify_access"('driver');
