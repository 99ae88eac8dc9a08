DROP INDEX "audit_log_resource_idx";--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log" USING btree ("actor_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_resource_at_idx" ON "audit_log" USING btree ("resource","resource_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);