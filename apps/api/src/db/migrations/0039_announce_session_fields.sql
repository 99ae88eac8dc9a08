-- Every request's session is read with its account's name, email and language (lib/sessions.ts),
-- and servers remember active sessions for a second, forgetting them when the database announces
-- a change on bmet_access. A change of those fields is announced too, so that a renamed account
-- or a new language shows at once on every server, as a revocation ends there at once.
DROP TRIGGER "accounts_access_changed" ON "accounts";
--> statement-breakpoint
CREATE TRIGGER "accounts_access_changed" AFTER UPDATE OF "disabled", "deleted_at", "role", "state", "dealer_id", "display_name", "email", "language" ON "accounts"
  FOR EACH ROW WHEN (OLD.disabled IS DISTINCT FROM NEW.disabled OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.role IS DISTINCT FROM NEW.role OR OLD.state IS DISTINCT FROM NEW.state OR OLD.dealer_id IS DISTINCT FROM NEW.dealer_id
    OR OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.email IS DISTINCT FROM NEW.email
    OR OLD.language IS DISTINCT FROM NEW.language)
  EXECUTE FUNCTION "bmet_notify_access"('account');
